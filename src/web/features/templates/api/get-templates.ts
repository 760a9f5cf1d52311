import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Template, TemplatesResponse } from '../../../../shared/working-faster.js';
import { workingFasterPaths } from '../../../../shared/working-faster-paths.js';
import type { ApiClient } from '../../../lib/api-client.js';
import { useApiClient } from '../../../lib/api-provider.js';

/** `GET /user/templates`: the viewer's saved replies, by name (ignoring case). */
export const getTemplates = (client: ApiClient): Promise<TemplatesResponse> =>
  client.get<TemplatesResponse>(workingFasterPaths.templates);

export const templateKeys = { all: ['templates'] as const };

/** The saved replies, fetched when first needed, then kept current by this page's own changes. */
export const templatesQueryOptions = (client: ApiClient) =>
  queryOptions({
    queryKey: templateKeys.all,
    queryFn: async (): Promise<Template[]> => (await getTemplates(client)).templates,
    staleTime: 60_000,
  });

export const useTemplates = (enabled = true) =>
  useQuery({ ...templatesQueryOptions(useApiClient()), enabled });

/** The list as the server orders it: by name ignoring case, then by id. */
export const byName = (a: Template, b: Template): number => {
  const left = a.name.toLowerCase();
  const right = b.name.toLowerCase();
  return left < right ? -1 : left > right ? 1 : a.id - b.id;
};
