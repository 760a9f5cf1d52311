import { z } from 'zod';
import { idSchema } from './api-fields.js';
import { hostChatSchema } from './models.js';
import { REPORT_DETAILS_MAX_LENGTH, REPORT_REASONS } from './safety-paths.js';
import { containsNul } from './text.js';

/**
 * Keeping people safe (contract Part 3): blocking, reporting, and moderation by the host. The
 * paths, messages and limits are zod-free in `safety-paths.ts` (the page imports them from there).
 */
export {
  BLOCKED_MESSAGE,
  moderationPaths,
  REPORT_DETAILS_MAX_LENGTH,
  REPORT_MESSAGES_KEPT,
  REPORT_REASONS,
  REPORTS_PER_DAY,
  safetyPaths,
  SUSPENDED_MESSAGE,
} from './safety-paths.js';

export const blockSchema = z.object({
  user_id: z.number().int().describe('The blocked person’s user id.'),
  name: z.string().describe('The blocked person’s name.'),
  blocked_at: z.string().describe('When they were blocked (ISO 8601, UTC).'),
});
export type Block = z.infer<typeof blockSchema>;
export const blocksResponseSchema = z.object({
  blocks: z.array(blockSchema).describe('Everyone the viewer blocked, latest first.'),
});
export type BlocksResponse = z.infer<typeof blocksResponseSchema>;
/** `POST /user/blocks` → 201 (new) or 200 (already blocked). */
export const blockResponseSchema = z.object({ block: blockSchema.describe('The block.') });
export type BlockResponse = z.infer<typeof blockResponseSchema>;
export const createBlockBodySchema = z.object({
  user_id: idSchema.describe(
    'The user id of a conversation partner to block (someone the viewer has a conversation with).',
  ),
});
export type CreateBlockBody = z.input<typeof createBlockBodySchema>;
export const blockParamsSchema = z.object({
  userId: idSchema.describe('The user id of the blocked person to unblock.'),
});

export const reportReasonSchema = z.enum(REPORT_REASONS, {
  error: `must be one of ${REPORT_REASONS.join(', ')}.`,
});
export type ReportReason = z.infer<typeof reportReasonSchema>;

export const createReportBodySchema = z.object({
  messenger_user_id: idSchema.describe(
    'The conversation to report (its id; the viewer must be one of its two parties): the report is about its other party.',
  ),
  reason: reportReasonSchema.describe(
    'Why: `spam`, `scam`, `harassment`, `inappropriate` or `other`.',
  ),
  details: z
    .string({ error: 'must be a string.' })
    .max(
      REPORT_DETAILS_MAX_LENGTH,
      `may not be greater than ${REPORT_DETAILS_MAX_LENGTH} characters.`,
    )
    .refine((value) => !containsNul(value), 'may not contain a NUL character.')
    .optional()
    .describe('What happened, in the reporter’s words (at most 1000 characters); absent: none.'),
  block: z
    .boolean({ error: 'must be true or false.' })
    .optional()
    .describe('True: also block the other party at once.'),
});
export type CreateReportBody = z.input<typeof createReportBodySchema>;

export const REPORT_STATUSES = ['open', 'resolved', 'dismissed'] as const;
export const reportStatusSchema = z.enum(REPORT_STATUSES, {
  error: `must be one of ${REPORT_STATUSES.join(', ')}.`,
});
export type ReportStatus = z.infer<typeof reportStatusSchema>;

/** What the reporter gets back: the report exists, nothing about its handling. */
export const reportReceiptSchema = z.object({
  id: z.number().int().describe('The report’s id.'),
  status: z
    .literal('open')
    .describe('Always `open`: the reporter is not told how the report is handled.'),
  created_at: z.string().describe('When it was filed (ISO 8601, UTC).'),
});
export const createReportResponseSchema = z.object({
  report: reportReceiptSchema.describe('The report as filed.'),
});
export type CreateReportResponse = z.infer<typeof createReportResponseSchema>;

/** A report as the host sees it: in the `report.created` webhook (without `status` and `created_at`) and on `/api/v1/reports`. */
export const hostReportSchema = z.object({
  id: z.number().int().describe('The report’s id.'),
  reason: reportReasonSchema.describe('`spam`, `scam`, `harassment`, `inappropriate` or `other`.'),
  details: z.string().nullable().describe('The reporter’s own words; null: none given.'),
  reporter_external_id: z
    .string()
    .nullable()
    .describe(
      'The host’s id of who filed it; null for a user the messenger made itself (a demo account).',
    ),
  reported_external_id: z
    .string()
    .nullable()
    .describe(
      'The host’s id of who is reported (the conversation’s other party); null for a user the messenger made itself.',
    ),
  messenger_user_id: z.number().int().describe('The reported conversation’s id.'),
  /** The conversation's latest messages (at most 50, oldest first) as they were when reported. */
  messages: z
    .array(hostChatSchema)
    .describe(
      'The conversation’s latest messages (at most 50, oldest first) as they were when reported: a later edit or deletion does not change them.',
    ),
  status: reportStatusSchema.describe(
    '`open` (new), `resolved` (the host acted) or `dismissed` (nothing to do).',
  ),
  created_at: z.string().describe('When it was filed (ISO 8601, UTC).'),
});
export type HostReport = z.infer<typeof hostReportSchema>;
export const reportCreatedWebhookDataSchema = z.object({
  report: hostReportSchema.omit({ status: true, created_at: true }),
});
export type ReportCreatedWebhookData = z.infer<typeof reportCreatedWebhookDataSchema>;

export const reportsQuerySchema = z.object({
  status: reportStatusSchema
    .optional()
    .describe(
      'Only the reports with this status (`open`, `resolved` or `dismissed`); absent: all of them.',
    ),
  cursor: z
    .string()
    .optional()
    .describe('The `next_cursor` of the previous page; absent: the first page.'),
});
export const reportsResponseSchema = z.object({
  reports: z.array(hostReportSchema).describe('One page of reports, newest first (at most 50).'),
  next_cursor: z
    .string()
    .nullable()
    .describe('Pass it back as `cursor` for the next page; null on the last page.'),
});
export const reportParamsSchema = z.object({ id: idSchema.describe('The report’s id.') });
export const updateReportBodySchema = z
  .object({
    status: z
      .enum(['resolved', 'dismissed'], { error: 'must be resolved or dismissed.' })
      .describe('`resolved` (you acted) or `dismissed` (nothing to do).'),
  })
  .strict();
export const reportResponseSchema = z.object({
  report: hostReportSchema.describe('The report after the change.'),
});

/** `PUT /api/v1/users/{externalId}` gains `suspended` (see `upsertUserBodySchema`). */
export const suspendedSchema = z.boolean({ error: 'must be true or false.' });
