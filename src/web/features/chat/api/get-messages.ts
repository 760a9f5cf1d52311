import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { GetMessageBody, GetMessageResponse } from '../../../../shared/messages.js';
import type { ApiClient } from '../../../lib/api-client.js';
import { useApiClient } from '../../../lib/api-provider.js';
import { apiPaths } from '../../../lib/contract.js';
import {
  oldestChatId,
  threadKeys,
  type ThreadKeyParts,
  type ThreadPageParam,
} from '../utils/thread-cache.js';

/** `POST /user/get/message`: the latest page, or older ones with `before` (a chat id). */
export const getMessages = (client: ApiClient, body: GetMessageBody): Promise<GetMessageResponse> =>
  client.post<GetMessageResponse>(apiPaths.getMessage, body);

/** The latest page of a conversation's messages (no `before`). */
export const getLatestMessages = (
  client: ApiClient,
  { receiverId, jobId }: { receiverId: number; jobId: number | null },
): Promise<GetMessageResponse> => getMessages(client, { receiver_id: receiverId, job_id: jobId });

/**
 * The open conversation's messages: the latest page first, older pages on demand
 * (`fetchNextPage` sends `before` = the oldest loaded chat id while `has_more`).
 * Never refetched behind the user's back; live updates merge into it instead.
 */
export const threadQueryOptions = (client: ApiClient, parts: ThreadKeyParts | null) =>
  infiniteQueryOptions({
    queryKey: parts ? threadKeys.thread(parts) : [...threadKeys.all, 'none'],
    enabled: parts !== null && parts.receiverId !== null,
    queryFn: ({ pageParam }) => {
      if (!parts || parts.receiverId === null) throw new Error('No conversation selected');
      return getMessages(client, {
        receiver_id: parts.receiverId,
        job_id: parts.jobId,
        ...(pageParam === undefined ? {} : { before: pageParam }),
      });
    },
    initialPageParam: undefined as ThreadPageParam,
    getNextPageParam: (lastPage) => (lastPage.has_more ? oldestChatId(lastPage) : undefined),
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

export const useThread = (parts: ThreadKeyParts | null) =>
  useInfiniteQuery(threadQueryOptions(useApiClient(), parts));
