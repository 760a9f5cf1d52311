import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { threadKeys } from '../../features/chat/utils/thread-cache.js';

/**
 * Read receipts and online status work both ways: switching one changes what the viewer sees, so
 * the lists (`refetch`) and the threads are fetched again.
 */
export const useReciprocalRefresh = (refetch: () => Promise<unknown>) => {
  const queryClient = useQueryClient();
  return useCallback(() => {
    void refetch();
    void queryClient.invalidateQueries({ queryKey: threadKeys.all });
  }, [refetch, queryClient]);
};
