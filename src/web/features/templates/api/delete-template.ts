import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Template } from '../../../../shared/working-faster.js';
import { workingFasterPaths } from '../../../../shared/working-faster-paths.js';
import type { ApiClient } from '../../../lib/api-client.js';
import { useApiClient } from '../../../lib/api-provider.js';
import { templateKeys } from './get-templates.js';

/** `DELETE /user/templates/{id}` → 204 (404: not the viewer's, or gone already). */
export const deleteTemplate = (client: ApiClient, id: number): Promise<unknown> =>
  client.delete<unknown>(workingFasterPaths.template(id));

/** Deletes a saved reply; it leaves the list at once. */
export const useDeleteTemplate = () => {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteTemplate(client, id),
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<Template[]>(templateKeys.all, (list) =>
        list ? list.filter((item) => item.id !== id) : list,
      );
      void queryClient.invalidateQueries({ queryKey: templateKeys.all });
    },
  });
};
