import { pathTemplate } from './paths.js';

/**
 * Keeping people safe: the paths, messages and limits of blocking and reporting, free of zod so the
 * client's first bundle can import them (src/shared/safety.ts re-exports them with the schemas).
 * The page's calls are in `safetyPaths`, the host's in `moderationPaths`.
 */
export const safetyPaths = {
  blocks: '/user/blocks',
  block: pathTemplate('/user/blocks/:userId'),
  reports: '/user/reports',
} as const;

export const moderationPaths = {
  reports: '/api/v1/reports',
  report: pathTemplate('/api/v1/reports/:id'),
} as const;

/** What a blocked sender is told (nothing more: not that they were blocked). */
export const BLOCKED_MESSAGE = "This person isn't accepting messages from you.";
/** What a suspended user is told when they send, type or upload. */
export const SUSPENDED_MESSAGE =
  'Your account is suspended: you can read your messages, but not send, type or upload.';

/** Reports one user may file per day (the 11th answers 429). */
export const REPORTS_PER_DAY = 10;
/** The latest messages a report keeps a copy of, as they were when it was filed. */
export const REPORT_MESSAGES_KEPT = 50;
export const REPORT_DETAILS_MAX_LENGTH = 1000;

export const REPORT_REASONS = ['spam', 'scam', 'harassment', 'inappropriate', 'other'] as const;
