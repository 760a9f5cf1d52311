import { z } from 'zod';
import { containsNul, hasVisibleText } from './text.js';

/**
 * The pieces the calls' schemas are made of (contract files by domain build on them): ids, the
 * text people type, the query every messaging call carries, and the error answer.
 */

/** Largest id: ids are PostgreSQL `serial` (`integer`) columns. Ids are 1..ID_MAX. */
export const ID_MAX = 2_147_483_647;
const ID_MESSAGE = `must be a whole number from 1 to ${ID_MAX}.`;

/** An id as the client sends it: a JSON number, or digits (route parameters, query strings, forms). */
const idInput = (message: string) =>
  z.union([z.number(), z.string().regex(/^\d{1,20}$/)], { error: message });
const idRange = (message: string) => z.number().int(message).min(1, message).max(ID_MAX, message);

/**
 * An id (1..2,147,483,647) as a JSON number or digits: anything else (a bigger number, a fraction,
 * `true`, `"1e3"`) is a 422 naming the field, never a database error.
 */
export const idSchema = idInput(ID_MESSAGE).transform(Number).pipe(idRange(ID_MESSAGE));
const JOB_ID_MESSAGE = `must be null or a whole number from 1 to ${ID_MAX}.`;
/** A job id, or `null` / `''` for "no job". */
export const nullableJobIdSchema = z
  .union([z.null(), z.literal(''), idInput(JOB_ID_MESSAGE)], { error: JOB_ID_MESSAGE })
  .transform((value) => (value === null || value === '' ? null : Number(value)))
  .pipe(idRange(JOB_ID_MESSAGE).nullable());

/** Text that PostgreSQL can store: no NUL character. */
export const storableText = (field: string) =>
  z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? `The ${field} field is required.`
          : `The ${field} must be a string.`,
    })
    .refine((value) => !containsNul(value), {
      message: `The ${field} may not contain a NUL character.`,
      abort: true,
    });

/** Query parameters every messaging call carries. */
export const defaultQuerySchema = z.object({
  key: z
    .string()
    .optional()
    .describe(
      'The application key from `GET /messenger/config` (every messaging call carries it; absent or wrong: 401).',
    ),
  token: z
    .string()
    .optional()
    .describe(
      'A personal access token, for a caller without the session cookie (empty in the browser).',
    ),
});

/**
 * Text a person typed: storable, trimmed, then at most `max` characters. `required`: something left
 * once trimmed; `visible`: something to show (only spaces, zero-width characters or bidi marks show
 * nothing, so there is nothing to send).
 */
export const typedText = (field: string, max: number, needs?: 'required' | 'visible') => {
  const required = `The ${field} field is required.`;
  const text =
    needs === 'required'
      ? z.string().min(1, required)
      : needs === 'visible'
        ? z.string().refine(hasVisibleText, { message: required, abort: true })
        : z.string();
  return storableText(field)
    .transform((value) => value.trim())
    .pipe(text.max(max, `The ${field} may not be greater than ${max} characters.`));
};

export const errorResponseSchema = z.object({
  message: z
    .string()
    .describe('What went wrong, in English, for people (e.g. "The given data was invalid.").'),
  errors: z
    .record(z.string(), z.array(z.string()))
    .optional()
    .describe(
      'Only for 422: each invalid field (dotted path, e.g. `settings.time_zone`; `_` for the whole body) with its messages.',
    ),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;
