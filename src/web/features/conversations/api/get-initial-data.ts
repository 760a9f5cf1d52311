import {
  keepPreviousData,
  skipToken,
  useInfiniteQuery,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { InitialDataResponse } from '../../../../shared/conversations.js';
import type { ApiClient } from '../../../lib/api-client.js';
import { useApiClient } from '../../../lib/api-provider.js';
import { apiPaths } from '../../../lib/contract.js';
import {
  LIST_PAGE_SIZE,
  conversationKeys,
  setCountsFromAnswer,
  type ListCounts,
  type ListFilter,
} from '../utils/conversation-cache.js';

/** Which conversations to ask for; with `limit`, one page of them. */
export interface InitialDataParams {
  /** null = all jobs. */
  jobId: number | null;
  limit?: number;
  /** The previous page's `next_cursor`. */
  cursor?: string | null;
  search?: string;
  archived?: boolean;
}

/** `GET /load/messengers/initial/data?job_id=&limit=&cursor=&search=&archived=`. */
export const getInitialData = (
  client: ApiClient,
  { jobId, limit, cursor, search, archived }: InitialDataParams,
): Promise<InitialDataResponse> =>
  client.get<InitialDataResponse>(apiPaths.initialData, {
    query: {
      job_id: jobId ?? '',
      ...(limit === undefined ? {} : { limit }),
      ...(cursor ? { cursor } : {}),
      ...(search ? { search } : {}),
      ...(archived === undefined ? {} : { archived: archived ? 1 : 0 }),
    },
  });

/**
 * One list (a job filter, a side, a server search), loaded a page at a time; each first page sets
 * the counters (unread over all conversations, archived).
 */
export const useListPages = (filter: ListFilter, enabled: boolean) => {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useInfiniteQuery({
    queryKey: conversationKeys.list(filter),
    queryFn: async ({ pageParam }) => {
      const page = await getInitialData(client, {
        jobId: filter.jobFilter ? Number(filter.jobFilter) : null,
        limit: LIST_PAGE_SIZE,
        cursor: pageParam,
        search: filter.search,
        archived: filter.archived,
      });
      if (pageParam === null) setCountsFromAnswer(queryClient, page);
      return page;
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor ?? null,
    // kept current by live events and answers; fetched again only after a gap (refetchFirstPages)
    staleTime: Infinity,
    // another job or search: the rows on screen stay until its first page is there
    placeholderData: keepPreviousData,
    enabled,
  });
};

/** Unread messages over all the viewer's conversations, and how many they archived. */
export const useListCounts = (): ListCounts | undefined =>
  useQuery<ListCounts>({ queryKey: conversationKeys.counts, queryFn: skipToken }).data;
