import { Suspense, useDeferredValue, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Job, MessengerUser, Role } from '../../../../shared/models.js';
import { Spinner } from '../../../components/spinner.js';
import { useFilterResult } from '../hooks/use-filter-result.js';
import { useMessageSearchKeys } from '../hooks/use-message-search-keys.js';
import { useNow } from '../hooks/use-now.js';
import { filterBySearch } from '../utils/conversation-view.js';
import { FilterResult } from './filter-result.js';
import { JobFilterRow } from './job-filter-row.js';
import { PagedConversationList, type LoadedList } from './paged-conversation-list.js';
import { PanelTitleRow } from './panel-title-row.js';
import { SearchModeSwitch } from './search-mode-switch.js';

export const ACTIVE_LIST_MAX_HEIGHT = 944;
export const ACTIVE_LIST_MAX_HEIGHT_WITH_ARCHIVE = 320;
export const ARCHIVED_LIST_MAX_HEIGHT = 350;

/**
 * The search box's switch between the conversations (names, job titles: the list narrows) and the
 * messages (the server's full-text search: results take the lists' place).
 */
export interface MessageSearchControls {
  mode: 'conversations' | 'messages';
  onModeChange: (mode: 'conversations' | 'messages') => void;
  /** The box's text in messages mode (the conversations mode keeps `search`). */
  query: string;
  onQueryChange: (value: string) => void;
  /** Drawn in place of the lists (null: the lists). */
  results: ReactNode;
}

interface ConversationPanelProps {
  viewerRole: Role;
  jobs: readonly Job[];
  active: LoadedList;
  archived: LoadedList;
  /** Unread messages over all the viewer's conversations (undefined until the first page). */
  unreadTotal: number | undefined;
  loading: boolean;
  selectedId: number | null;
  search: string;
  onSearchChange: (value: string) => void;
  jobFilter: string;
  onJobFilterChange: (value: string) => void;
  /** The filter form was submitted: reload the list for the chosen job (resolves when reloaded). */
  onFilter: () => Promise<unknown>;
  onSelect: (item: MessengerUser) => void;
  onToggleArchive: (item: MessengerUser, archive: boolean) => void;
  /** In the small-screen drawer the dialog carries the title and the archived heading reads differently. */
  inDrawer?: boolean;
  /** Searching messages: the switch beside the box, and the results (none: conversations only). */
  messageSearch?: MessageSearchControls;
}

/** Heading, search, job filter, the active list and the archived section. */
export const ConversationPanel = ({
  viewerRole,
  jobs,
  active: activeList,
  archived: archivedList,
  unreadTotal,
  loading,
  selectedId,
  search,
  onSearchChange,
  jobFilter,
  onJobFilterChange,
  onFilter,
  onSelect,
  onToggleArchive,
  inDrawer = false,
  messageSearch,
}: ConversationPanelProps) => {
  const { t } = useTranslation();
  const now = useNow(60_000);
  const deferredSearch = useDeferredValue(search);
  // the rows loaded so far are searched on the page at once; a list not loaded whole is also
  // searched on the server once typing settles (use-conversations.ts), and those rows come here
  const active = useMemo(
    () => filterBySearch(activeList.items, deferredSearch, viewerRole),
    [activeList.items, deferredSearch, viewerRole],
  );
  const archived = useMemo(
    () => filterBySearch(archivedList.items, deferredSearch, viewerRole),
    [archivedList.items, deferredSearch, viewerRole],
  );
  const countIsExact = activeList.complete && archivedList.complete;
  const searchingMessages = messageSearch?.mode === 'messages';
  const searchPlaceholder = searchingMessages
    ? t('messageSearch.placeholder')
    : viewerRole === 'candidate'
      ? t('conversations.searchCompany')
      : t('conversations.searchCandidates');
  const messageResults = searchingMessages ? messageSearch.results : null;
  const { resultsRef, onSearchKeyDown } = useMessageSearchKeys(messageSearch);
  const hasArchived = archived.length > 0;
  const { filtering, showResult, onSubmit } = useFilterResult({
    search,
    jobFilter,
    onFilter,
    searchingMessages,
  });
  const archivedHeadingId = inDrawer ? 'archived-heading-drawer' : 'archived-heading';
  // what both lists share
  const rowProps = { viewerRole, selectedId, now, onSelect, onToggleArchive };

  return (
    <div className="conversation-panel">
      <PanelTitleRow inDrawer={inDrawer} unreadTotal={unreadTotal} />
      <form
        className="conversation-panel__filters"
        role="search"
        onSubmit={(event) => void onSubmit(event)}
      >
        {messageSearch ? (
          <SearchModeSwitch mode={messageSearch.mode} onModeChange={messageSearch.onModeChange} />
        ) : null}
        <input
          type="search"
          className="input"
          value={searchingMessages ? messageSearch.query : search}
          placeholder={searchPlaceholder}
          aria-label={searchPlaceholder}
          autoComplete="off"
          data-testid="search-input"
          onKeyDown={onSearchKeyDown}
          onChange={(event) =>
            searchingMessages
              ? messageSearch.onQueryChange(event.target.value)
              : onSearchChange(event.target.value)
          }
        />
        <JobFilterRow
          jobs={jobs}
          jobFilter={jobFilter}
          onJobFilterChange={onJobFilterChange}
          filtering={filtering}
          hidden={searchingMessages}
        />
        {showResult && !searchingMessages ? (
          <FilterResult count={active.length + archived.length} exact={countIsExact} />
        ) : null}
      </form>

      {messageResults ? (
        <div ref={resultsRef} className="conversation-panel__search-results">
          {messageResults}
        </div>
      ) : (
        <>
          {loading && active.length === 0 ? (
            <div className="conversation-panel__status">
              <Spinner label={t('conversations.loading')} />
            </div>
          ) : null}

          <Suspense
            fallback={
              <div className="conversation-panel__status">
                <Spinner label={t('conversations.loading')} />
              </div>
            }
          >
            <PagedConversationList
              {...rowProps}
              list={activeList}
              items={active}
              archived={false}
              label={t('conversations.listLabel')}
              testId="conversation-list"
              maxHeight={hasArchived ? ACTIVE_LIST_MAX_HEIGHT_WITH_ARCHIVE : ACTIVE_LIST_MAX_HEIGHT}
            />
            {!loading && active.length === 0 ? (
              <p className="conversation-panel__empty">
                {search.trim() ? t('conversations.noMatch') : t('conversations.empty')}
              </p>
            ) : null}

            {hasArchived ? (
              <section className="archived-section" aria-labelledby={archivedHeadingId}>
                <h3 className="archived-section__heading" id={archivedHeadingId}>
                  {inDrawer
                    ? t('conversations.archivedHeadingDrawer')
                    : t('conversations.archivedHeading')}
                </h3>
                <PagedConversationList
                  {...rowProps}
                  list={archivedList}
                  items={archived}
                  archived
                  label={t('conversations.archivedListLabel')}
                  testId="archived-list"
                  maxHeight={ARCHIVED_LIST_MAX_HEIGHT}
                />
              </section>
            ) : null}
          </Suspense>
        </>
      )}
    </div>
  );
};
