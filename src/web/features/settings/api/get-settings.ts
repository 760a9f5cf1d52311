import type { UserSettingsResponse } from '../../../../shared/integration.js';
import type { ApiClient } from '../../../lib/api-client.js';
import { apiPaths } from '../../../lib/contract.js';

/** `GET /user/settings`: the viewer's switches (defaults until changed). */
export const getSettings = (client: ApiClient): Promise<UserSettingsResponse> =>
  client.get<UserSettingsResponse>(apiPaths.settings);
