/** The contract's paths and limits, from the zod-free part of src/shared (keeps zod out of the first bundle). */
export { paths as apiPaths, MESSAGE_MAX_LENGTH, sameOriginPath } from '../../shared/paths.js';
/** The server's own test of an empty message (only spaces, zero-width characters, bidi marks). */
export { hasVisibleText } from '../../shared/text.js';

/** Where the page lives, and where signed-out visitors are sent. */
export const pagePaths = {
  messages: '/messages',
  login: '/login',
} as const;

/** Attachments: limits and the refusal wording, as the server has them (docs/attachments.md). */
export {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENTS_PER_MESSAGE,
  refusedKindOf,
} from '../../shared/attachments.js';

/** Blocking and reporting: the paths and limits (the server's wording comes with its answers). */
export {
  BLOCKED_MESSAGE,
  REPORT_DETAILS_MAX_LENGTH,
  REPORT_REASONS,
  safetyPaths,
  SUSPENDED_MESSAGE,
} from '../../shared/safety-paths.js';
