import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Template, TemplatesResponse } from '../../../../shared/saved-replies.js';
import { savedRepliesPaths } from '../../../../shared/saved-replies-paths.js';
import type { ApiClient } from '../../../lib/api-client.js';
import { useApiClient } from '../../../lib/api-provider.js';

/** `GET /user/templates`: the viewer's saved replies, by name (ignoring case). */
export const getTemplates = (client: ApiClient): Promise<TemplatesResponse> =>
  client.get<TemplatesResponse>(savedRepliesPaths.templates);

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

/**
 * A change to the saved replies (`call`): the loaded list shows it at once, as `change` makes it
 * of the answer, and is then asked for again.
 */
export const useTemplatesChange = <Input, Answer>(
  call: (client: ApiClient, input: Input) => Promise<Answer>,
  change: (list: Template[], answer: Answer, input: Input) => Template[],
) => {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Input) => call(client, input),
    onSuccess: (answer, input) => {
      queryClient.setQueryData<Template[]>(templateKeys.all, (list) =>
        list ? change(list, answer, input) : list,
      );
      void queryClient.invalidateQueries({ queryKey: templateKeys.all });
    },
  });
};
