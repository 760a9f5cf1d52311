import { z } from 'zod';
import { idSchema, messageTextSchema, typedText } from './api.js';
import { chatSchema, messengerUserSchema } from './models.js';
import {
  SEARCH_LIMIT_DEFAULT,
  SEARCH_LIMIT_MAX,
  SEARCH_QUERY_MAX_LENGTH,
  SEARCH_QUERY_MIN_LENGTH,
} from './search-text.js';
import { TEMPLATE_BODY_MAX_LENGTH, TEMPLATE_NAME_MAX_LENGTH } from './working-faster-paths.js';

/**
 * Working faster (contract Part 3): saved replies, searching messages, editing and deleting. The
 * paths and limits are zod-free in `working-faster-paths.ts` and `search-text.ts`.
 */
export * from './working-faster-paths.js';
export * from './search-text.js';

// ---- Saved replies ----
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

// ---- Searching messages ----
export const searchMessagesQuerySchema = z.object({
  q: z
    .string({ error: 'The q field is required.' })
    .transform((value) => value.trim())
    .pipe(
      z
        .string()
        .min(
          SEARCH_QUERY_MIN_LENGTH,
          `The q must be at least ${SEARCH_QUERY_MIN_LENGTH} characters.`,
        )
        .max(
          SEARCH_QUERY_MAX_LENGTH,
          `The q may not be greater than ${SEARCH_QUERY_MAX_LENGTH} characters.`,
        ),
    )
    .describe(
      'Words to find in the viewer’s messages (trimmed, 2–100 characters): whole words and word beginnings, ignoring case and diacritics, in English and Arabic.',
    ),
  // A query string's digits, or a number (a caller building the query); as text in the
  // document, which is what a query string carries.
  limit: z
    .union(
      [
        z.number(),
        z
          .string()
          .regex(/^\d{1,3}$/)
          .transform(Number),
      ],
      {
        error: `The limit must be an integer between 1 and ${SEARCH_LIMIT_MAX}.`,
      },
    )
    .pipe(
      z
        .number()
        .int(`The limit must be an integer between 1 and ${SEARCH_LIMIT_MAX}.`)
        .min(1, `The limit must be an integer between 1 and ${SEARCH_LIMIT_MAX}.`)
        .max(SEARCH_LIMIT_MAX, `The limit must be an integer between 1 and ${SEARCH_LIMIT_MAX}.`),
    )
    .default(SEARCH_LIMIT_DEFAULT)
    .describe('How many results at most (1–50; default 20).'),
  /** Opaque: the `next_cursor` of the previous page. */
  cursor: z
    .string()
    .max(200)
    .optional()
    .describe('The `next_cursor` of the previous page; absent: the first page.'),
});
export type SearchMessagesQuery = z.input<typeof searchMessagesQuerySchema>;
export const searchResultSchema = z.object({
  message: chatSchema.describe('The message found.'),
  /** The conversation as the viewer sees it in their list. */
  messenger_user: messengerUserSchema.describe(
    'The conversation as the viewer sees it in their list.',
  ),
  /** Plain text around the first match (at most 200 characters). */
  snippet: z.string().describe('Plain text around the first match (at most 200 characters).'),
});
export type SearchResult = z.infer<typeof searchResultSchema>;
export const searchMessagesResponseSchema = z.object({
  results: z.array(searchResultSchema).describe('One page of matching messages, newest first.'),
  next_cursor: z
    .string()
    .nullable()
    .describe('Pass it back as `cursor` for the next page; null on the last page.'),
});
export type SearchMessagesResponse = z.infer<typeof searchMessagesResponseSchema>;

// ---- Editing and deleting ----
export const messageParamsSchema = z.object({
  id: idSchema.describe('The message’s id (one the viewer sent).'),
});
/**
 * `PATCH /user/messages/{id}` `{message}`: the send's text rules (trimmed, at most 5000, no NUL);
 * empty only when the message has files (the service checks, 422 on `message`).
 */
export const editMessageBodySchema = z.object({
  message: messageTextSchema.describe(
    'The new text (trimmed, at most 5000 characters); empty only when the message has files.',
  ),
});
export type EditMessageBody = z.input<typeof editMessageBodySchema>;
/** 200: the updated message in the shape the send answers with. */
export const editMessageResponseSchema = z.object({
  message: chatSchema.describe('The message after the change.'),
  messengerUser: messengerUserSchema.describe(
    'The conversation as the viewer sees it after the change.',
  ),
});
export type EditMessageResponse = z.infer<typeof editMessageResponseSchema>;
