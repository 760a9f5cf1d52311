import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { SEARCH_QUERY_MIN_LENGTH } from '../../../../shared/search-text.js';
import type { SearchMessagesResponse } from '../../../../shared/message-search.js';
import { messageSearchPaths } from '../../../../shared/message-search-paths.js';
import type { ApiClient } from '../../../lib/api-client.js';
import { useApiClient } from '../../../lib/api-provider.js';

export interface SearchMessagesParams {
  q: string;
  /** 1–50; the server's default (20) without it. */
  limit?: number;
  /** The previous page's `next_cursor`. */
  cursor?: string | null;
}

/** `GET /user/messages/search?q=&limit=&cursor=`: the viewer's messages that match, newest first. */
export const searchMessages = (
  client: ApiClient,
  { q, limit, cursor }: SearchMessagesParams,
): Promise<SearchMessagesResponse> =>
  client.get<SearchMessagesResponse>(messageSearchPaths.searchMessages, {
    query: { q, ...(limit === undefined ? {} : { limit }), ...(cursor ? { cursor } : {}) },
  });

export const messageSearchKeys = {
  all: ['message-search'] as const,
  query: (q: string) => ['message-search', q] as const,
};

/** Whether a query is long enough to be asked of the server (the contract's minimum, trimmed). */
export const isSearchableQuery = (q: string): boolean => q.trim().length >= SEARCH_QUERY_MIN_LENGTH;

/**
 * The results of one query, a page at a time (`fetchNextPage` sends the last page's
 * `next_cursor`). Asked again each time the query is typed anew: messages come and go.
 */
export const searchMessagesQueryOptions = (client: ApiClient, q: string) =>
  infiniteQueryOptions({
    queryKey: messageSearchKeys.query(q),
    queryFn: ({ pageParam }) => searchMessages(client, { q, cursor: pageParam }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    enabled: isSearchableQuery(q),
    gcTime: 60_000,
  });

export const useSearchMessages = (q: string) =>
  useInfiniteQuery(searchMessagesQueryOptions(useApiClient(), q));
