import { savedRepliesPaths } from '../../../../shared/saved-replies-paths.js';
import type { ApiClient } from '../../../lib/api-client.js';
import { useTemplatesChange } from './get-templates.js';

/** `DELETE /user/templates/{id}` → 204 (404: not the viewer's, or gone already). */
export const deleteTemplate = (client: ApiClient, id: number): Promise<unknown> =>
  client.delete<unknown>(savedRepliesPaths.template(id));

/** Deletes a saved reply; it leaves the list at once. */
export const useDeleteTemplate = () =>
  useTemplatesChange(deleteTemplate, (list, _answer, id) => list.filter((item) => item.id !== id));
