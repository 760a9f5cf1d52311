import {
  Suspense,
  useDeferredValue,
  useMemo,
  useRef,
  useState,
  type ComponentProps,
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';
import type { Job, MessengerUser, Role } from '../../../../shared/models.js';
import { LineIcon } from '../../../components/line-icon.js';
import { Spinner } from '../../../components/spinner.js';
import { useNow } from '../hooks/use-now.js';
import { filterBySearch } from '../utils/conversation-view.js';
import { LazyConversationList as ConversationList } from './lazy-conversation-list.js';

export const ACTIVE_LIST_MAX_HEIGHT = 944;
export const ACTIVE_LIST_MAX_HEIGHT_WITH_ARCHIVE = 320;
export const ARCHIVED_LIST_MAX_HEIGHT = 350;

/** One side of the panel as loaded so far, and how to load the next page. */
export interface LoadedList {
  items: readonly MessengerUser[];
  /** Every row is loaded (the search and the count are exact). */
  complete: boolean;
  hasMore: boolean;
  isLoadingMore: boolean;
  loadMore: () => void;
}

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
  const resultsRef = useRef<HTMLDivElement>(null);
  // In messages mode Down goes to the first result (a focusable `[data-search-result]`); Escape
  // empties the box (the list comes back), then goes back to conversations
  const onSearchKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (!messageSearch || !searchingMessages) return;
    if (event.key === 'ArrowDown') {
      const first = resultsRef.current?.querySelector<HTMLElement>('[data-search-result]');
      if (!first) return;
      event.preventDefault();
      first.focus();
      return;
    }
    if (event.key !== 'Escape') return;
    event.preventDefault();
    if (messageSearch.query) messageSearch.onQueryChange('');
    else messageSearch.onModeChange('conversations');
  };
  const hasArchived = archived.length > 0;
  // Filter (or Enter in the search box) applies the typed search and the chosen job together: the
  // list is reloaded for that job and the result is counted; the count goes once either changes.
  const [submitted, setSubmitted] = useState<{ search: string; jobFilter: string } | null>(null);
  const [filtering, setFiltering] = useState(false);
  const showResult =
    submitted !== null &&
    !filtering &&
    submitted.search === search &&
    submitted.jobFilter === jobFilter;
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (searchingMessages) return; // the messages are searched as the text is typed
    const applied = { search, jobFilter };
    setFiltering(true);
    try {
      await onFilter();
    } finally {
      setFiltering(false);
      setSubmitted(applied);
    }
  };
  const selectedJob = jobs.find((job) => String(job.id) === jobFilter);
  const archivedHeadingId = inDrawer ? 'archived-heading-drawer' : 'archived-heading';

  /** A list, loading its next page as it scrolls, with a spinner while that page comes. */
  const pagedList = (
    list: LoadedList,
    items: readonly MessengerUser[],
    props: Pick<
      ComponentProps<typeof ConversationList>,
      'archived' | 'label' | 'testId' | 'maxHeight'
    >,
  ) => (
    <>
      <ConversationList
        {...props}
        items={items}
        viewerRole={viewerRole}
        selectedId={selectedId}
        now={now}
        onSelect={onSelect}
        onToggleArchive={onToggleArchive}
        hasMore={list.hasMore}
        onLoadMore={list.loadMore}
      />
      {list.isLoadingMore ? (
        <div className="conversation-panel__more">
          <Spinner size="sm" label={t('conversations.loadingMore')} />
        </div>
      ) : null}
    </>
  );

  return (
    <div className="conversation-panel">
      {inDrawer && !unreadTotal ? null : (
        <div className="conversation-panel__title-row">
          {inDrawer ? null : (
            <h2 className="conversation-panel__heading">{t('conversations.heading')}</h2>
          )}
          {unreadTotal ? (
            <span className="conversation-panel__unread-total" data-testid="unread-total">
              {t('conversations.unreadTotal', { count: unreadTotal })}
            </span>
          ) : null}
        </div>
      )}
      <form
        className="conversation-panel__filters"
        role="search"
        onSubmit={(event) => void onSubmit(event)}
      >
        {messageSearch ? (
          <div
            className="search-mode"
            role="radiogroup"
            aria-label={t('messageSearch.modeLabel')}
            data-testid="search-mode"
          >
            {(['conversations', 'messages'] as const).map((mode) => (
              <button
                key={mode}
                type="button"
                role="radio"
                className="search-mode__option"
                aria-checked={messageSearch.mode === mode}
                // one Tab stop for the pair; the arrow keys switch, as radio buttons do
                tabIndex={messageSearch.mode === mode ? 0 : -1}
                onClick={() => messageSearch.onModeChange(mode)}
                onKeyDown={(event) => {
                  if (!['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].includes(event.key))
                    return;
                  event.preventDefault();
                  const other = mode === 'messages' ? 'conversations' : 'messages';
                  messageSearch.onModeChange(other);
                  const sibling =
                    event.currentTarget.nextElementSibling ??
                    event.currentTarget.previousElementSibling;
                  if (sibling instanceof HTMLElement) sibling.focus();
                }}
              >
                {mode === 'messages'
                  ? t('messageSearch.modeMessages')
                  : t('messageSearch.modeConversations')}
              </button>
            ))}
          </div>
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
        <div className={`conversation-panel__filter-row${searchingMessages ? ' is-hidden' : ''}`}>
          <select
            className="input select"
            data-testid="job-filter"
            aria-label={t('conversations.jobFilterLabel')}
            title={selectedJob ? selectedJob.title || t('conversations.noTitle') : undefined}
            value={jobFilter}
            onChange={(event) => onJobFilterChange(event.target.value)}
          >
            <option value="">{t('conversations.allJobs')}</option>
            {jobs.map((job) => (
              <option key={job.id} value={String(job.id)} title={job.title || undefined}>
                {job.title || t('conversations.noTitle')}
              </option>
            ))}
          </select>
          <button type="submit" className="button button--secondary" aria-busy={filtering}>
            <LineIcon path="M4 5h16l-6 7.5V19l-4 1.5v-8L4 5z" size={16} strokeWidth={1.8} />
            <span>{t('conversations.filter')}</span>
          </button>
        </div>
        {showResult && !searchingMessages ? (
          <p className="conversation-panel__result" role="status" data-testid="filter-result">
            {countIsExact
              ? t('conversations.filterResult', { count: active.length + archived.length })
              : t('conversations.filterResultMore', { count: active.length + archived.length })}
          </p>
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
            {pagedList(activeList, active, {
              archived: false,
              label: t('conversations.listLabel'),
              testId: 'conversation-list',
              maxHeight: hasArchived ? ACTIVE_LIST_MAX_HEIGHT_WITH_ARCHIVE : ACTIVE_LIST_MAX_HEIGHT,
            })}
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
                {pagedList(archivedList, archived, {
                  archived: true,
                  label: t('conversations.archivedListLabel'),
                  testId: 'archived-list',
                  maxHeight: ARCHIVED_LIST_MAX_HEIGHT,
                })}
              </section>
            ) : null}
          </Suspense>
        </>
      )}
    </div>
  );
};
