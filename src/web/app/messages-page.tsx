import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Drawer } from '../components/drawer.js';
import { LiveRegion, useAnnouncer } from '../components/live-region.js';
import { LazyChatPane as ChatPane } from '../features/chat/components/lazy-chat-pane.js';
import { useArchiveWithUndo } from '../features/conversations/hooks/use-archive-with-undo.js';
import {
  useConversationLists,
  useOpenRow,
} from '../features/conversations/hooks/use-conversation-lists.js';
import { useLiveLists } from '../features/conversations/hooks/use-live-lists.js';
import { EmbedBadge } from '../features/embed/components/embed-badge.js';
import { SessionEndedNotice } from '../features/embed/components/session-ended-notice.js';
import { useEmbed, useSessionEnded } from '../features/embed/hooks/use-embed.js';
import { useMuted } from '../features/language-and-sound/hooks/use-muted.js';
import { useLiveConnection } from '../lib/realtime.js';
import { SMALL_SCREEN_QUERY, useMediaQuery } from '../lib/use-media-query.js';
import { ArchiveUndoToast } from './archive-undo-toast.js';
import { EmbeddedConversationPage } from './embedded-conversation-page.js';
import { useEmbedHost } from './hooks/use-embed-host.js';
import { useEmbedPageEvents } from './hooks/use-embed-page-events.js';
import { useMessageAlerts } from './hooks/use-message-alerts.js';
import { useMessageSearchSlots } from './message-search-slots.js';
import { useOpenConversation } from './hooks/use-open-conversation.js';
import { useReciprocalRefresh } from './hooks/use-reciprocal-refresh.js';
import { LiveStatus } from './live-status.js';
import { PageConversationPanel } from './page-conversation-panel.js';
import { PageStatus } from './page-status.js';
import { useSafetySlots } from './safety-slots.js';
import { useSavedRepliesTools } from './saved-replies-slot.js';
import { useSelection } from './hooks/use-selection.js';
import { useUnreadTitle } from './hooks/use-unread-title.js';
import { MAIN_ID, SkipToChatLink } from './skip-to-chat-link.js';
import { Topbar } from './topbar.js';

/**
 * The messaging page: conversation panel (sidebar or drawer), chat pane, live updates. Embedded
 * (`?embed=`, features/embed): the inbox is the whole page in its frame, the conversation mode only
 * the open conversation's chat, the badge mode only the unread count.
 */
export const MessagesPage = () => {
  const { t } = useTranslation();
  const embed = useEmbed();
  const embedMode = embed?.params.mode;
  const sessionEnded = useSessionEnded(embed);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const closeDrawer = useCallback(() => setDrawerOpen(false), []);
  const mainRef = useRef<HTMLElement>(null);
  const [muted, setMuted] = useMuted();
  const [announcement, announce] = useAnnouncer();
  const isSmallScreen = useMediaQuery(SMALL_SCREEN_QUERY);

  const lists = useConversationLists();
  const { auth } = lists;
  const {
    selection,
    openedFrom,
    composerFocusRequest,
    selectFromList,
    selectFromSearch,
    selectFromHost,
    ...navigation
  } = useSelection(auth, closeDrawer);
  const openId = selection?.selectedItem;
  const messageSearch = useMessageSearchSlots({
    auth,
    conversationSearch: lists.search,
    onConversationSearchChange: lists.setSearch,
    openId,
    selectFromSearch,
  });
  useLiveLists(openId);
  const openRow = useOpenRow(lists, openId);
  const archiving = useArchiveWithUndo({
    viewerRole: auth?.role,
    announce,
    focusFallback: mainRef,
  });

  // While the live connection is gone nobody can tell who is online: no "online" is claimed (the
  // catch-up after the reconnection asks for presence again).
  const liveDown = useLiveConnection(auth?.id) === 'reconnecting';
  useMessageAlerts({
    viewerId: auth?.id,
    // the badge shows a number, nothing more: no sound from it
    muted: muted || embedMode === 'badge',
    announce,
    onOpenNotification: navigation.openFromNotification,
  });
  useUnreadTitle(lists.unreadTotal ?? 0);
  const openConversation = useOpenConversation({
    auth,
    selection,
    openRow,
    openedFrom,
    liveDown,
  });
  const embedHost = useEmbedHost({ embed, auth, openId, selectFromHost });
  useEmbedPageEvents({
    embed,
    signedIn: auth !== undefined,
    conversationShown: openConversation !== null || embedHost.failed,
    unreadTotal: lists.unreadTotal,
    onPeerChange: () => void lists.refetch(),
  });
  const safety = useSafetySlots({ auth, conversation: openConversation, announce });
  const composerTools = useSavedRepliesTools(auth, openConversation);

  // back on the list (phones): the list is the page, so the drawer has nothing to add
  useEffect(() => {
    if (!selection) setDrawerOpen(false);
  }, [selection]);

  // read receipts and online status work both ways: switching one changes what the viewer sees
  const onReciprocalChanged = useReciprocalRefresh(lists.refetch);

  const panel = (inDrawer: boolean) =>
    auth ? (
      <PageConversationPanel
        auth={auth}
        lists={lists}
        openId={openId}
        onSelect={selectFromList}
        onToggleArchive={archiving.onToggleArchive}
        inDrawer={inDrawer}
        messageSearch={messageSearch.panel}
      />
    ) : null;

  if (sessionEnded)
    return (
      <div className="messenger messenger--embed">
        <SessionEndedNotice />
      </div>
    );
  if (embedMode === 'badge') return <EmbedBadge count={lists.unreadTotal} />;

  const chatPane = (onBack: (() => void) | undefined) =>
    auth ? (
      <ChatPane
        viewer={auth}
        conversation={openConversation}
        onBack={onBack}
        composerFocusRequest={composerFocusRequest}
        headerActions={safety.headerActions}
        composerNotice={safety.composerNotice}
        focusMessage={messageSearch.focusMessage}
        composerTools={composerTools}
      />
    ) : null;
  const pageStatus = (failed: boolean) => (
    <PageStatus failed={failed} listFailed={lists.active.isError} onRetry={lists.retry} />
  );

  if (embedMode === 'conversation')
    // one conversation: its chat and composer, no list, no top bar, no way back
    return (
      <EmbeddedConversationPage liveDown={liveDown} main={mainRef} announcement={announcement}>
        {auth && openConversation
          ? chatPane(undefined)
          : pageStatus(lists.active.isError || embedHost.failed)}
      </EmbeddedConversationPage>
    );

  return (
    <div
      className={`messenger${embed ? ' messenger--embed' : ''}${liveDown ? ' messenger--live-down' : ''}`}
    >
      <div className="messenger__layout" inert={drawerOpen && isSmallScreen}>
        <SkipToChatLink main={mainRef} conversationOpen={openConversation !== null} />
        <Topbar
          viewerId={auth?.id}
          // phones: the list is the first screen itself; the drawer serves an open conversation
          drawer={
            isSmallScreen && selection
              ? { open: drawerOpen, onOpen: () => setDrawerOpen(true) }
              : null
          }
          muted={muted}
          onMutedChange={setMuted}
          onReciprocalChanged={onReciprocalChanged}
        />

        <LiveStatus liveDown={liveDown} />

        <div className="messenger__body">
          {!isSmallScreen ? (
            <aside className="messenger__sidebar" aria-label={t('conversations.heading')}>
              {panel(false)}
            </aside>
          ) : null}
          <main className="messenger__main" id={MAIN_ID} ref={mainRef} tabIndex={-1}>
            {!auth ? (
              pageStatus(lists.active.isError)
            ) : isSmallScreen && !selection ? (
              // Phones start on the list (the drawer holds it while a conversation is open)
              drawerOpen ? null : (
                <div className="messenger__phone-list">{panel(false)}</div>
              )
            ) : (
              chatPane(isSmallScreen ? navigation.backToList : undefined)
            )}
          </main>
        </div>
      </div>

      <ArchiveUndoToast toast={archiving.toast} />
      {isSmallScreen && drawerOpen ? (
        <Drawer
          title={t('conversations.drawerTitle')}
          closeLabel={t('conversations.closeDrawer')}
          onClose={closeDrawer}
        >
          {panel(true)}
        </Drawer>
      ) : null}
      <LiveRegion message={announcement} />
    </div>
  );
};
