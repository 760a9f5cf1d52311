import { memo, useEffect, useMemo, useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Role } from '../../../../shared/models.js';
import { hasBidiControl, isolateBidiControls } from '../../../../shared/text.js';
import type { SearchResult } from '../../../../shared/message-search.js';
import { Avatar } from '../../../components/avatar.js';
import { RetryButton } from '../../../components/retry-button.js';
import { Spinner } from '../../../components/spinner.js';
import { formatFullDateTime, formatMessageDate, shownName } from '../../../lib/format.js';
import { useSearchMessages } from '../api/search-messages.js';
import { highlightParts } from '../utils/highlight.js';
import { resultParty } from '../utils/result-party.js';

interface MessageSearchResultsProps {
  /** The search box's text (at least the contract's minimum length). */
  query: string;
  /** The text once typing settled (`useMessageSearch`): what the server is asked. */
  settledQuery: string;
  viewerRole: Role;
  /** The message open in the chat (its result is marked current). */
  openMessageId?: number | null;
  onOpen: (result: SearchResult) => void;
}

/**
 * The messages that match the search box's text, newest first, in place of the conversation list:
 * each a button opening its conversation at that message. The count (or that nothing matched) is a
 * polite status; more results come with "Show more results". Up/Down, Home/End move between
 * results; Enter opens one.
 */
export const MessageSearchResults = ({
  query,
  settledQuery: settled,
  viewerRole,
  openMessageId = null,
  onOpen,
}: MessageSearchResultsProps) => {
  const { t } = useTranslation();
  const typed = query.trim();
  const search = useSearchMessages(settled);
  const results = useMemo(
    () => search.data?.pages.flatMap((page) => page.results) ?? [],
    [search.data],
  );
  const settling = typed !== settled;
  const ready = !settling && search.isSuccess;
  const listRef = useRef<HTMLUListElement>(null);

  // after "Show more results" (which goes away on the last page) the first new result takes the focus
  const focusFrom = useRef<number | null>(null);
  useEffect(() => {
    const index = focusFrom.current;
    if (index === null || search.isFetchingNextPage) return;
    focusFrom.current = null;
    resultButtons(listRef.current)[index]?.focus();
  }, [results, search.isFetchingNextPage]);
  const showMore = () => {
    focusFrom.current = results.length;
    void search.fetchNextPage();
  };

  const status = !ready
    ? ''
    : results.length === 0
      ? t('messageSearch.noMatch')
      : search.hasNextPage
        ? t('messageSearch.resultCountMore', { count: results.length })
        : t('messageSearch.resultCount', { count: results.length });

  return (
    <section
      className="message-search"
      aria-label={t('messageSearch.resultsLabel')}
      data-testid="message-search-results"
    >
      <p
        className={`message-search__status${ready && results.length === 0 ? ' is-empty' : ''}`}
        role="status"
        data-testid="message-search-status"
      >
        {status}
      </p>
      {settling || search.isPending ? (
        <div className="message-search__loading">
          <Spinner label={t('messageSearch.searching')} />
        </div>
      ) : search.isError ? (
        <div
          className="centered-column message-search__error"
          role="alert"
          data-testid="message-search-error"
        >
          <p>{t('messageSearch.failed')}</p>
          <RetryButton
            label={t('messageSearch.retry')}
            onRetry={search.refetch}
            variant="secondary"
          />
        </div>
      ) : results.length > 0 ? (
        <>
          <ul
            ref={listRef}
            className="message-search__list plain-list"
            onKeyDown={moveBetweenResults}
          >
            {results.map((result) => (
              <SearchResultRow
                key={result.message.id}
                result={result}
                query={settled}
                viewerRole={viewerRole}
                current={result.message.id === openMessageId}
                onOpen={onOpen}
              />
            ))}
          </ul>
          {search.isFetchingNextPage ? (
            <div className="message-search__more">
              <Spinner size="sm" label={t('messageSearch.loadingMore')} />
            </div>
          ) : search.hasNextPage ? (
            <div className="message-search__more">
              <button type="button" className="button button--ghost" onClick={showMore}>
                {t('messageSearch.showMore')}
              </button>
            </div>
          ) : null}
        </>
      ) : null}
    </section>
  );
};

const resultButtons = (list: HTMLElement | null): HTMLButtonElement[] =>
  list ? Array.from(list.querySelectorAll<HTMLButtonElement>('[data-search-result]')) : [];

/** Up/Down move to the next or previous result, Home/End to the first or last. */
const moveBetweenResults = (event: KeyboardEvent<HTMLUListElement>) => {
  const buttons = resultButtons(event.currentTarget);
  const index = buttons.findIndex((button) => button === document.activeElement);
  if (index < 0) return;
  const target =
    event.key === 'ArrowDown'
      ? Math.min(index + 1, buttons.length - 1)
      : event.key === 'ArrowUp'
        ? Math.max(index - 1, 0)
        : event.key === 'Home'
          ? 0
          : event.key === 'End'
            ? buttons.length - 1
            : null;
  if (target === null) return;
  event.preventDefault();
  buttons[target]?.focus();
};

/** A snippet with the query's words marked; a text with bidi controls is drawn isolated. */
const HighlightedSnippet = ({ text, query }: { text: string; query: string }) => {
  const isolated = hasBidiControl(text);
  const parts = highlightParts(isolated ? isolateBidiControls(text) : text, query).map(
    (part, index) =>
      part.match ? (
        <mark key={index} className="message-search__mark">
          {part.text}
        </mark>
      ) : (
        part.text
      ),
  );
  return isolated ? <bdi>{parts}</bdi> : <>{parts}</>;
};

/**
 * One result: the other party (name and picture, as the list shows them), the job, the message's
 * date and the snippet with the query's words marked. The button is named by what it shows.
 */
const SearchResultRow = memo(function SearchResultRow({
  result,
  query,
  viewerRole,
  current,
  onOpen,
}: {
  result: SearchResult;
  query: string;
  viewerRole: Role;
  current: boolean;
  onOpen: (result: SearchResult) => void;
}) {
  const { t, i18n } = useTranslation();
  const { message } = result;
  const party = resultParty(result.messenger_user, viewerRole);
  const name = shownName(party.name, () => t('app.deletedUser'));
  const conversation = result.messenger_user;
  const own =
    message.sender_id ===
    (viewerRole === 'candidate' ? conversation.candidate_id : conversation.company_id);
  const date = formatMessageDate(message.created_at, i18n.language);
  // a match in a file's name has no text around it: the files are named instead
  const snippet = result.snippet || message.attachments.map((file) => file.name).join(', ');
  return (
    <li>
      <button
        type="button"
        className="search-result"
        data-search-result=""
        data-testid="message-search-result"
        data-message-id={message.id}
        data-conversation-id={result.messenger_user.id}
        aria-current={current ? 'true' : undefined}
        onClick={() => onOpen(result)}
      >
        <span className="search-result__avatar">
          <Avatar name={name} imageUrl={party.imageUrl} defer />
        </span>
        <span className="search-result__body">
          <span className="search-result__top">
            <span className="search-result__name truncate" dir="auto">
              {name}
            </span>
            {date ? (
              <time
                className="search-result__date"
                dateTime={message.created_at}
                title={formatFullDateTime(message.created_at, i18n.language)}
              >
                {date}
              </time>
            ) : null}
          </span>
          {party.jobTitle ? (
            <span className="search-result__job truncate" dir="auto">
              {party.jobTitle}
            </span>
          ) : null}
          <span className="search-result__snippet" dir="auto" data-testid="search-result-snippet">
            {own ? <span className="search-result__you">{t('messageSearch.you')} </span> : null}
            <HighlightedSnippet text={snippet} query={query} />
          </span>
        </span>
      </button>
    </li>
  );
});
