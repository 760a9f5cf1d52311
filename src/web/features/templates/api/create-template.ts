import type { CreateTemplateBody, TemplateResponse } from '../../../../shared/saved-replies.js';
import { savedRepliesPaths } from '../../../../shared/saved-replies-paths.js';
import type { ApiClient } from '../../../lib/api-client.js';
import { byName, useTemplatesChange } from './get-templates.js';

/** `POST /user/templates {name, body}` → 201 `{template}` (422: a field, or 100 kept already). */
export const createTemplate = (
  client: ApiClient,
  body: CreateTemplateBody,
): Promise<TemplateResponse> => client.post<TemplateResponse>(savedRepliesPaths.templates, body);

/** Saves a new reply; the list shows it in its place at once. */
export const useCreateTemplate = () =>
  useTemplatesChange(createTemplate, (list, { template }) =>
    [...list.filter((item) => item.id !== template.id), template].sort(byName),
  );
