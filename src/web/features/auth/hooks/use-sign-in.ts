import { useCallback, useState } from 'react';
import { useApi } from '../../../lib/api.js';
import { isApiError } from '../../../lib/api-client.js';

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
  const api = useApi();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<SignInError | null>(null);
  const signIn = useCallback(
    async (email: string, password: string) => {
      setPending(true);
      setError(null);
      try {
        await api.login({ email: email.trim(), password });
        onSignedIn();
      } catch (failure) {
        console.error(failure);
        setError(errorOf(failure));
        setPending(false);
      }
    },
    [api, onSignedIn],
  );
  return { signIn, pending, error };
};
