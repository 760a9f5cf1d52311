import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserSettingsResponse } from '../../../../shared/integration.js';
import type { ApiClient } from '../../../lib/api-client.js';
import { useApiClient } from '../../../lib/api-provider.js';
import { apiPaths } from '../../../lib/contract.js';

/** `GET /user/settings`: the viewer's switches (defaults until changed). */
export const getSettings = (client: ApiClient): Promise<UserSettingsResponse> =>
  client.get<UserSettingsResponse>(apiPaths.settings);

export const settingsKeys = { all: ['settings'] as const };

/** The settings, fetched the first time they are needed and then kept (saves update them). */
export const settingsQueryOptions = (client: ApiClient) =>
  queryOptions({
    queryKey: settingsKeys.all,
    queryFn: async () => (await getSettings(client)).settings,
    staleTime: Infinity,
  });

export const useSettingsQuery = (enabled: boolean) =>
  useQuery({ ...settingsQueryOptions(useApiClient()), enabled });
