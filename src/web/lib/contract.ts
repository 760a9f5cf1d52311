/** The contract's paths and limits, from the zod-free part of src/shared (keeps zod out of the first bundle). */
export { paths as apiPaths, MESSAGE_MAX_LENGTH, sameOriginPath } from '../../shared/paths.js';
/** The server's own test of an empty message (only spaces, zero-width characters, bidi marks). */
export { hasVisibleText } from '../../shared/text.js';

/** Where the page lives, and where signed-out visitors are sent. */
export const pagePaths = {
  messages: '/messages',
  login: '/login',
} as const;

/**
 * Attachments (contract Part 2). Copied, not imported: `src/shared/api.ts` holds zod; kept equal to
 * it by `features/chat/components/chat-attachments.test.tsx`.
 */
export const ATTACHMENTS_PER_MESSAGE = 5;
/** The largest upload the server takes (413 above): larger files are refused before uploading. */
export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
