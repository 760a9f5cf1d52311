import { z } from 'zod';
import { chatSchema, messengerUserSchema } from './models.js';
import {
  SEARCH_LIMIT_DEFAULT,
  SEARCH_LIMIT_MAX,
  SEARCH_QUERY_MAX_LENGTH,
  SEARCH_QUERY_MIN_LENGTH,
} from './search-text.js';

/**
 * Searching messages (contract Part 3, working faster). The path is zod-free in
 * `message-search-paths.ts`, the limits and how text becomes words in `search-text.ts`.
 */
export * from './message-search-paths.js';
export * from './search-text.js';

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
