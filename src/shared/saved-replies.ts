import { z } from 'zod';
import { idSchema, typedText } from './api-fields.js';
import { TEMPLATE_BODY_MAX_LENGTH, TEMPLATE_NAME_MAX_LENGTH } from './saved-replies-paths.js';

/**
 * Saved replies (contract Part 3, working faster): a user's named texts to insert. The paths,
 * limits and the filling of variables are zod-free in `saved-replies-paths.ts`.
 */
export * from './saved-replies-paths.js';

export const templateSchema = z.object({
  id: z.number().int().describe('The saved reply’s id.'),
  name: z.string().describe('Its name, as the picker lists it.'),
  body: z
    .string()
    .describe(
      'The text it inserts (variables such as `{{candidate.name}}` are filled in when inserted).',
    ),
  updated_at: z.string().describe('When it was last changed (ISO 8601, UTC).'),
});
export type Template = z.infer<typeof templateSchema>;
export const templatesResponseSchema = z.object({
  templates: z.array(templateSchema).describe('The viewer’s saved replies, by name.'),
});
export type TemplatesResponse = z.infer<typeof templatesResponseSchema>;
export const templateResponseSchema = z.object({
  template: templateSchema.describe('The saved reply as stored.'),
});
export type TemplateResponse = z.infer<typeof templateResponseSchema>;

const templateName = typedText('name', TEMPLATE_NAME_MAX_LENGTH, 'required');
const templateBody = typedText('body', TEMPLATE_BODY_MAX_LENGTH, 'required');
/** `POST /user/templates` → 201 `{template}`. */
export const createTemplateBodySchema = z.object({
  name: templateName.describe(
    'The saved reply’s name, as the picker lists it (trimmed, 1–80 characters).',
  ),
  body: templateBody.describe(
    'The text it inserts (trimmed, 1–5000 characters; variables such as `{{candidate.first_name}}`, `{{company.name}}` or `{{job.title}}` are filled in when inserted).',
  ),
});
export type CreateTemplateBody = z.input<typeof createTemplateBodySchema>;
/** `PATCH /user/templates/{id}` → 200 `{template}`: either or both. */
export const updateTemplateBodySchema = z
  .object({
    name: templateName
      .optional()
      .describe('A new name (trimmed, 1–80 characters); absent: unchanged.'),
    body: templateBody
      .optional()
      .describe('A new text (trimmed, 1–5000 characters); absent: unchanged.'),
  })
  .refine((body) => body.name !== undefined || body.body !== undefined, {
    message: 'The name or the body is required.',
    path: ['name'],
  });
export type UpdateTemplateBody = z.input<typeof updateTemplateBodySchema>;
export const templateParamsSchema = z.object({
  id: idSchema.describe('The saved reply’s id (one of the viewer’s own).'),
});
