import { z } from 'zod';
import { idSchema, nullableJobIdSchema, storableText } from './api-fields.js';
import { authUserSchema, jobSchema, messengerUserSchema } from './models.js';

/** The conversation list (`GET /load/messengers/initial/data`) and the answers of a conversation's changes. */

/** Largest page of `GET /load/messengers/initial/data`. */
export const LIST_LIMIT_MAX = 200;
const LIST_LIMIT_MESSAGE = `must be a whole number from 1 to ${LIST_LIMIT_MAX}.`;
const SEARCH_MAX_LENGTH = 200;

/** A cursor is opaque base64url text; the server checks what it carries. */
const CURSOR_MESSAGE = 'is not a cursor from a previous answer.';

export const initialDataQuerySchema = z.object({
  job_id: nullableJobIdSchema
    .optional()
    .transform((value) => value ?? null)
    .describe(
      'Only the conversations about this job (a job id); absent, empty or `null`: every conversation.',
    ),
  /** A page of at most `limit` conversations (without it, all of them). */
  limit: z
    .string({ error: LIST_LIMIT_MESSAGE })
    .regex(/^\d{1,4}$/, LIST_LIMIT_MESSAGE)
    .transform(Number)
    .pipe(z.number().int().min(1, LIST_LIMIT_MESSAGE).max(LIST_LIMIT_MAX, LIST_LIMIT_MESSAGE))
    .optional()
    .describe(
      'A page of at most this many conversations (1–200), newest activity first; absent: all of them in one answer.',
    ),
  /** The previous page's `next_cursor` (only with `limit`). */
  cursor: z
    .string({ error: CURSOR_MESSAGE })
    .max(500, CURSOR_MESSAGE)
    .regex(/^[A-Za-z0-9_-]+$/, CURSOR_MESSAGE)
    .optional()
    .describe(
      'The `next_cursor` of the previous page (only with `limit`); absent: the first page.',
    ),
  /** Case-insensitive "contains" on the other party's name and the job title; empty = no search. */
  search: storableText('search')
    .max(SEARCH_MAX_LENGTH, `The search may not be greater than ${SEARCH_MAX_LENGTH} characters.`)
    .transform((value) => value.trim())
    .optional()
    .transform((value) => value || undefined)
    .describe(
      'Only conversations whose other party’s name or job title contains this text (case-insensitive, at most 200 characters); empty: no search.',
    ),
  /** Only the conversations whose archive flag for the viewer is this value. */
  archived: z
    .enum(['0', '1'], { error: 'must be 0 or 1.' })
    .optional()
    .transform((value) => (value === undefined ? undefined : value === '1'))
    .describe(
      '`1`: only the conversations the viewer archived; `0`: only those not archived; absent: both.',
    ),
});
export type InitialDataQuery = z.infer<typeof initialDataQuerySchema>;

export const initialDataResponseSchema = z.object({
  jobs: z.array(jobSchema).describe('The jobs of the viewer’s conversations (for the job filter).'),
  messengerUsers: z
    .array(messengerUserSchema)
    .describe('The viewer’s conversations, newest activity first (one page of them with `limit`).'),
  auth: authUserSchema.describe('The signed-in user.'),
  /** Unread messages over all the viewer's conversations (whatever the filters). */
  unread_total: z
    .number()
    .int()
    .describe('Unread messages over all the viewer’s conversations, whatever the filters.'),
  /** How many conversations the viewer has archived (whatever the filters). */
  archived_count: z
    .number()
    .int()
    .describe('How many conversations the viewer archived, whatever the filters.'),
  /** Only with `limit`: the cursor of the next page, `null` on the last one. */
  next_cursor: z
    .string()
    .nullable()
    .optional()
    .describe(
      'Only with `limit`: pass it back as `cursor` for the next page; null on the last page.',
    ),
});
export type InitialDataResponse = z.infer<typeof initialDataResponseSchema>;

export const messengerUserResponseSchema = z.object({
  messengerUser: messengerUserSchema.describe(
    'The conversation as the viewer sees it after the change.',
  ),
});
export type MessengerUserResponse = z.infer<typeof messengerUserResponseSchema>;

export const messengerUserParamsSchema = z.object({
  id: idSchema.describe(
    'The conversation’s id (a `MessengerUser` id; the viewer must be one of its two parties).',
  ),
});
