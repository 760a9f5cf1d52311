import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useApi } from '../../../lib/api.js';
import { conversationKeys } from '../utils/conversation-cache.js';

/** The list (with jobs and auth) for a job filter: '' = all jobs, else a job id. */
export const useConversations = (jobFilter: string) => {
  const api = useApi();
  return useQuery({
    queryKey: conversationKeys.list(jobFilter),
    queryFn: () => api.getInitialData({ jobId: jobFilter ? Number(jobFilter) : null }),
    placeholderData: keepPreviousData,
  });
};
