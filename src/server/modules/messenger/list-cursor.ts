import { z } from 'zod';
import { ID_MAX } from '../../../shared/api-fields.js';
import { validationFailed } from '../../lib/http-error.js';

/**
 * What a conversation-list cursor carries. The client sees only base64url of its JSON (opaque):
 * `t0` is the snapshot moment of the first page, and (`at`, `id`) the last row's position in the
 * list as it was at `t0` (docs/performance.md, "Paging the conversation list").
 */
const listCursorSchema = z
  .object({
    t0: z.iso.datetime(),
    at: z.iso.datetime(),
    id: z.number().int().min(1).max(ID_MAX),
  })
  .strict();
export type ListCursor = z.infer<typeof listCursorSchema>;

export const encodeListCursor = (cursor: ListCursor): string =>
  Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url');

const BAD_CURSOR = 'The cursor is not a cursor from a previous answer.';

/** The cursor's content, or 422 naming `cursor`. */
export const decodeListCursor = (text: string): ListCursor => {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw validationFailed('cursor', BAD_CURSOR);
  }
  const parsed = listCursorSchema.safeParse(value);
  if (!parsed.success) throw validationFailed('cursor', BAD_CURSOR);
  return parsed.data;
};

/** A first page is read with no snapshot moment: later than any timestamp a row can carry. */
export const END_OF_TIME = '9999-12-31T23:59:59.999Z';

/**
 * The snapshot moment for the pages after a first page read at `readAt`: just after the read and
 * after every row the page showed (a row written by an instance whose clock runs ahead must count
 * as before it, or a later page would show it again at its older place).
 */
export const momentAfter = (shownAt: readonly string[], readAt: string): string => {
  const latest = shownAt.reduce((max, at) => (at > max ? at : max), readAt);
  return new Date(Date.parse(latest) + 1).toISOString();
};
