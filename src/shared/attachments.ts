/**
 * Attachments: the limits and the refusal wording the server and the page share,
 * free of zod so the client's first bundle can import them.
 */

/** At most this many files with one message. */
export const ATTACHMENTS_PER_MESSAGE = 5;

/** The largest upload taken (413 above). */
export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;

/** The 422 of an upload whose bytes are not an allowed kind: names the kind found (`html`, `exe`, …). */
export const refusedKindMessage = (found: string): string =>
  `Files of this kind (${found}) cannot be sent. Allowed: PDF, DOC, DOCX, ODT, RTF, TXT, PNG, JPEG, WEBP, GIF.`;

/** The kind a `refusedKindMessage` names (undefined: not one). */
export const refusedKindOf = (message: string): string | undefined =>
  /^Files of this kind \(([^)]{1,40})\) cannot be sent\./.exec(message)?.[1];
