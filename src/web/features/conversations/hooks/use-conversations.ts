import { useCallback, useMemo } from 'react';
import type { InitialDataResponse } from '../../../../shared/conversations.js';
import type { MessengerUser } from '../../../../shared/models.js';
import { useDebouncedValue } from '../../../lib/use-debounced-value.js';
import { useListPages } from '../api/get-initial-data.js';
import { conversationKeys, listItems } from '../utils/conversation-cache.js';

/** Typing settles this long before the server is asked to search. */
export const SEARCH_DEBOUNCE_MS = 300;

export interface ConversationListState {
  /** The rows loaded so far (the server's search when one is running, else the whole list's pages). */
  items: MessengerUser[];
  /** The first page's answer of the list on screen (auth, jobs). */
  firstPage: InitialDataResponse | undefined;
  /** Every row of this list is loaded: searching is done on the page. */
  complete: boolean;
  hasMore: boolean;
  loadMore: () => void;
  isFetching: boolean;
  isLoadingMore: boolean;
  isError: boolean;
  /** The key of the list on screen (the filter form fetches its first page again). */
  queryKey: readonly unknown[];
}

/**
 * The conversations of one side of the panel (active or archived) for a job filter, 50 at a time.
 * While the whole list is not loaded, a search (once typing settles) is asked of the server and its
 * own pages are shown; a complete list is searched on the page.
 */
export const useConversations = (
  { jobFilter, search, archived }: { jobFilter: string; search: string; archived: boolean },
  enabled = true,
): ConversationListState => {
  const whole = useListPages({ jobFilter, search: '', archived }, enabled);
  const complete = whole.data !== undefined && !whole.hasNextPage;
  const settledSearch = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const serverSearch = complete ? '' : settledSearch;
  const searched = useListPages(
    { jobFilter, search: serverSearch, archived },
    enabled && serverSearch !== '',
  );
  // while the server's first answer is on its way, the loaded rows (searched on the page) stay
  const shown = serverSearch && searched.data ? searched : whole;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = shown;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const items = useMemo(() => listItems(shown.data), [shown.data]);
  const shownSearch = shown === searched ? serverSearch : '';
  const queryKey = useMemo(
    () => conversationKeys.list({ jobFilter, search: shownSearch, archived }),
    [jobFilter, shownSearch, archived],
  );
  return {
    items,
    firstPage: whole.data?.pages[0],
    complete,
    // while typed text is searched only among the loaded rows (typing not settled yet), the few
    // rows left must not make the list page through everything
    hasMore: hasNextPage && (search.trim() === '' || shown === searched),
    loadMore,
    // typing that has not settled yet counts as fetching: "no match" waits for the server's answer
    isFetching:
      whole.isFetching ||
      (serverSearch !== '' && searched.isFetching) ||
      (!complete && search.trim() !== settledSearch),
    isLoadingMore: isFetchingNextPage,
    isError: whole.isError,
    queryKey,
  };
};
