import { useCallback, useState } from 'react';
import type { AuthUser } from '../../../../shared/models.js';
import { isApiError, type ApiClient } from '../../../lib/api-client.js';
import { useApiClient } from '../../../lib/api-provider.js';
import { apiPaths } from '../../../lib/contract.js';

/** `POST /login` → `{user}`; 401 wrong credentials, 429 throttled, 419 CSRF. */
export const login = (
  client: ApiClient,
  credentials: { email: string; password: string },
): Promise<{ user: AuthUser }> => client.post<{ user: AuthUser }>(apiPaths.login, credentials);

export type SignInError = 'invalid' | 'throttled' | 'expired' | 'failed';

const errorOf = (error: unknown): SignInError => {
  if (!isApiError(error)) return 'failed';
  if (error.status === 401 || error.status === 422) return 'invalid';
  if (error.status === 429) return 'throttled';
  if (error.status === 419) return 'expired';
  return 'failed';
};

/** Signs in and leaves for `next`; the reason when it fails. */
export const useSignIn = (onSignedIn: () => void) => {
  const client = useApiClient();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<SignInError | null>(null);
  const signIn = useCallback(
    async (email: string, password: string) => {
      setPending(true);
      setError(null);
      try {
        await login(client, { email: email.trim(), password });
        onSignedIn();
      } catch (failure) {
        console.error(failure);
        setError(errorOf(failure));
        setPending(false);
      }
    },
    [client, onSignedIn],
  );
  return { signIn, pending, error };
};
