import type { z } from 'zod';
import { HttpError } from './http-error.js';

/** 400 unless the body is a JSON object. */
export const requireObjectBody = (body: unknown): Record<string, unknown> => {
  if (body === undefined) return {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new HttpError(400, 'The request body must be a JSON object.');
  }
  return body as Record<string, unknown>;
};

/** Parses with a zod schema; failures become 422 naming each field. */
export const parseInput = <Schema extends z.ZodType>(
  schema: Schema,
  input: unknown,
): z.output<Schema> => {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    // An unknown key is named as a field of its own (a strict object's one issue lists them all).
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const field = [...issue.path, key].join('.');
        (errors[field] ??= []).push(`The ${field} field is not allowed.`);
      }
      continue;
    }
    // The whole input of the wrong type (a JSON array where an object belongs, say).
    if (issue.path.length === 0 && issue.code === 'invalid_type') {
      (errors._ ??= []).push(`The request body must be a JSON ${issue.expected}.`);
      continue;
    }
    const field = issue.path.length > 0 ? issue.path.join('.') : '_';
    const message = issue.message.startsWith('The ')
      ? issue.message
      : `The ${field} field: ${issue.message}`;
    (errors[field] ??= []).push(message);
  }
  const first = Object.values(errors)[0]?.[0] ?? 'The given data was invalid.';
  const more = Object.keys(errors).length - 1;
  throw new HttpError(
    422,
    more > 0 ? `${first} (and ${more} more error${more > 1 ? 's' : ''})` : first,
    errors,
  );
};

export const parseBody = <Schema extends z.ZodType>(
  schema: Schema,
  body: unknown,
): z.output<Schema> => parseInput(schema, requireObjectBody(body));
