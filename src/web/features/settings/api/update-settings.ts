import type { UserSettingsPatch, UserSettingsResponse } from '../../../../shared/integration.js';
import type { ApiClient } from '../../../lib/api-client.js';
import { apiPaths } from '../../../lib/contract.js';

/** `PATCH /user/settings` with any subset: the settings as they now are. */
export const updateSettings = (
  client: ApiClient,
  patch: UserSettingsPatch,
): Promise<UserSettingsResponse> => client.patch<UserSettingsResponse>(apiPaths.settings, patch);
