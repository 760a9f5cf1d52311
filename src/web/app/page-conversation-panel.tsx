import type { AuthUser, MessengerUser } from '../../shared/models.js';
import {
  ConversationPanel,
  type MessageSearchControls,
} from '../features/conversations/components/conversation-panel.js';
import type { useConversationLists } from '../features/conversations/hooks/use-conversation-lists.js';

/** The conversation panel of the page's lists (sidebar, phone list or drawer). */
export const PageConversationPanel = ({
  auth,
  lists,
  openId,
  onSelect,
  onToggleArchive,
  inDrawer,
  messageSearch,
}: {
  auth: AuthUser;
  lists: ReturnType<typeof useConversationLists>;
  /** The open conversation's id. */
  openId: number | undefined;
  onSelect: (item: MessengerUser) => void;
  onToggleArchive: (item: MessengerUser, archive: boolean) => void;
  inDrawer: boolean;
  messageSearch: MessageSearchControls | undefined;
}) => (
  <ConversationPanel
    viewerRole={auth.role}
    jobs={lists.jobs}
    active={lists.active}
    archived={lists.archived}
    unreadTotal={lists.unreadTotal}
    loading={lists.active.isFetching}
    selectedId={openId ?? null}
    search={lists.search}
    onSearchChange={lists.setSearch}
    jobFilter={lists.jobFilter}
    onJobFilterChange={lists.setJobFilter}
    onFilter={lists.refetch}
    onSelect={onSelect}
    onToggleArchive={onToggleArchive}
    inDrawer={inDrawer}
    messageSearch={messageSearch}
  />
);
