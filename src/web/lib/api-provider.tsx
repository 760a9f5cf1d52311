import { createContext, useContext, type ReactNode } from 'react';
import type { ApiClient } from './api-client.js';

/**
 * The API client every call goes through. Each call is one file in `features/<feature>/api/`: the
 * fetcher (taking the client), its query options or mutation, and the hook that binds it to the
 * client from here. Tests provide a fake client (`test-support/web/fake-api.ts`).
 */
const ApiClientContext = createContext<ApiClient | null>(null);

export const ApiProvider = ({ client, children }: { client: ApiClient; children: ReactNode }) => (
  <ApiClientContext.Provider value={client}>{children}</ApiClientContext.Provider>
);

export const useApiClient = (): ApiClient => {
  const client = useContext(ApiClientContext);
  if (!client) throw new Error('useApiClient must be used inside <ApiProvider>');
  return client;
};
