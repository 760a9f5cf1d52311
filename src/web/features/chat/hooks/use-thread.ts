import { useInfiniteQuery } from '@tanstack/react-query';
import { useApi } from '../../../lib/api.js';
import {
  oldestChatId,
  threadKeys,
  type ThreadKeyParts,
  type ThreadPageParam,
} from '../utils/thread-cache.js';

/**
 * The open conversation's messages: the latest page first, older pages on demand
 * (`fetchNextPage` sends `before` = the oldest loaded chat id while `has_more`).
 * Never refetched behind the user's back; live updates merge into it instead.
 */
export const useThread = (parts: ThreadKeyParts | null) => {
  const api = useApi();
  return useInfiniteQuery({
    queryKey: parts ? threadKeys.thread(parts) : [...threadKeys.all, 'none'],
    enabled: parts !== null && parts.receiverId !== null,
    queryFn: ({ pageParam }) => {
      if (!parts || parts.receiverId === null) throw new Error('No conversation selected');
      return api.getMessages({
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
};
