import type { ApiClient } from '../../../lib/api-client.js';
import { apiPaths } from '../../../lib/contract.js';

/** `POST /logout` → 204. */
export const logout = (client: ApiClient): Promise<void> => client.post<void>(apiPaths.logout);
