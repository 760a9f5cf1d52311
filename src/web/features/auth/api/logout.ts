import { useCallback } from 'react';
import type { ApiClient } from '../../../lib/api-client.js';
import { useApiClient } from '../../../lib/api-provider.js';
import { apiPaths, pagePaths } from '../../../lib/contract.js';
import { useServices } from '../../../lib/services.js';

/** `POST /logout` → 204. */
export const logout = (client: ApiClient): Promise<void> =>
  client.post<void>(apiPaths.logout, {}, { endsSession: true });

/**
 * Signs out and leaves for the sign-in page (even when the call fails: the visitor asked to go):
 * `/login`, which with `LOGIN_URL` the server answers with the host's sign-in page.
 */
export const useSignOut = () => {
  const client = useApiClient();
  const { navigate } = useServices();
  return useCallback(async () => {
    try {
      await logout(client);
    } catch (error) {
      console.error(error);
    }
    navigate(pagePaths.login);
  }, [client, navigate]);
};
