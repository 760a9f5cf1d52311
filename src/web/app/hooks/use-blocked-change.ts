import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import {
  applyBlockedToThread,
  threadKeys,
  type ThreadData,
} from '../../features/chat/utils/thread-cache.js';
import { applyBlockedToLists } from '../../features/conversations/utils/conversation-cache.js';
import type { BlockedChange } from '../../features/safety/utils/blocked-change.js';

/**
 * After the viewer blocked or unblocked someone: every cached list row and open thread of a
 * conversation with them says so (nothing is fetched).
 */
export const useBlockedChange = (viewerId: number | undefined): BlockedChange => {
  const queryClient = useQueryClient();
  return useCallback(
    (userId, blocked) => {
      applyBlockedToLists(queryClient, userId, blocked);
      if (viewerId === undefined) return;
      queryClient.setQueriesData<ThreadData>({ queryKey: threadKeys.all }, (data) =>
        applyBlockedToThread(data, userId, blocked, viewerId),
      );
    },
    [queryClient, viewerId],
  );
};
