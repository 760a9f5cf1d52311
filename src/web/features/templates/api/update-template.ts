import type { TemplateResponse, UpdateTemplateBody } from '../../../../shared/working-faster.js';
import { workingFasterPaths } from '../../../../shared/working-faster-paths.js';
import type { ApiClient } from '../../../lib/api-client.js';
import { byName, useTemplatesChange } from './get-templates.js';

/** `PATCH /user/templates/{id} {name?, body?}` → 200 `{template}` (404: not the viewer's). */
export const updateTemplate = (
  client: ApiClient,
  id: number,
  body: UpdateTemplateBody,
): Promise<TemplateResponse> =>
  client.patch<TemplateResponse>(workingFasterPaths.template(id), body);

/** Changes a saved reply; the list shows the change (and the new order) at once. */
export const useUpdateTemplate = () =>
  useTemplatesChange(
    (client, { id, body }: { id: number; body: UpdateTemplateBody }) =>
      updateTemplate(client, id, body),
    (list, { template }) =>
      list.map((item) => (item.id === template.id ? template : item)).sort(byName),
  );
