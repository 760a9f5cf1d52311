import type { TemplateResponse, UpdateTemplateBody } from '../../../../shared/saved-replies.js';
import { savedRepliesPaths } from '../../../../shared/saved-replies-paths.js';
import type { ApiClient } from '../../../lib/api-client.js';
import { byName, useTemplatesChange } from './get-templates.js';

/** `PATCH /user/templates/{id} {name?, body?}` → 200 `{template}` (404: not the viewer's). */
export const updateTemplate = (
  client: ApiClient,
  id: number,
  body: UpdateTemplateBody,
): Promise<TemplateResponse> =>
  client.patch<TemplateResponse>(savedRepliesPaths.template(id), body);

/** Changes a saved reply; the list shows the change (and the new order) at once. */
export const useUpdateTemplate = () =>
  useTemplatesChange(
    (client, { id, body }: { id: number; body: UpdateTemplateBody }) =>
      updateTemplate(client, id, body),
    (list, { template }) =>
      list.map((item) => (item.id === template.id ? template : item)).sort(byName),
  );
