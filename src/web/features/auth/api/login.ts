import type { AuthUser } from '../../../../shared/models.js';
import type { ApiClient } from '../../../lib/api-client.js';
import { apiPaths } from '../../../lib/contract.js';

/** `POST /login` → `{user}`; 401 wrong credentials, 429 throttled, 419 CSRF. */
export const login = (
  client: ApiClient,
  credentials: { email: string; password: string },
): Promise<{ user: AuthUser }> => client.post<{ user: AuthUser }>(apiPaths.login, credentials);
