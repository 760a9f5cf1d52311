import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError } from '../lib/api-client.js';

/** Every failed query and mutation is logged to the console; client errors (4xx) are not retried. */
export const createQueryClient = (options: { retry?: boolean } = {}): QueryClient =>
  new QueryClient({
    queryCache: new QueryCache({ onError: (error) => console.error(error) }),
    mutationCache: new MutationCache({ onError: (error) => console.error(error) }),
    defaultOptions: {
      queries: {
        retry:
          options.retry === false
            ? false
            : (failureCount, error) =>
                failureCount < 2 &&
                !(isApiError(error) && error.status >= 400 && error.status < 500),
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
        staleTime: 0,
      },
      mutations: { retry: false },
    },
  });
