import { z } from 'zod';
import { idSchema } from './api.js';
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
  user_id: z.number().int(),
  name: z.string(),
  blocked_at: z.string(),
});
export type Block = z.infer<typeof blockSchema>;
export const blocksResponseSchema = z.object({ blocks: z.array(blockSchema) });
export type BlocksResponse = z.infer<typeof blocksResponseSchema>;
/** `POST /user/blocks` → 201 (new) or 200 (already blocked). */
export const blockResponseSchema = z.object({ block: blockSchema });
export type BlockResponse = z.infer<typeof blockResponseSchema>;
export const createBlockBodySchema = z.object({ user_id: idSchema });
export type CreateBlockBody = z.input<typeof createBlockBodySchema>;
export const blockParamsSchema = z.object({ userId: idSchema });

export const reportReasonSchema = z.enum(REPORT_REASONS, {
  error: `must be one of ${REPORT_REASONS.join(', ')}.`,
});
export type ReportReason = z.infer<typeof reportReasonSchema>;

export const createReportBodySchema = z.object({
  messenger_user_id: idSchema,
  reason: reportReasonSchema,
  details: z
    .string({ error: 'must be a string.' })
    .max(
      REPORT_DETAILS_MAX_LENGTH,
      `may not be greater than ${REPORT_DETAILS_MAX_LENGTH} characters.`,
    )
    .refine((value) => !containsNul(value), 'may not contain a NUL character.')
    .optional(),
  block: z.boolean({ error: 'must be true or false.' }).optional(),
});
export type CreateReportBody = z.input<typeof createReportBodySchema>;

export const REPORT_STATUSES = ['open', 'resolved', 'dismissed'] as const;
export const reportStatusSchema = z.enum(REPORT_STATUSES, {
  error: `must be one of ${REPORT_STATUSES.join(', ')}.`,
});
export type ReportStatus = z.infer<typeof reportStatusSchema>;

/** What the reporter gets back: the report exists, nothing about its handling. */
export const reportReceiptSchema = z.object({
  id: z.number().int(),
  status: z.literal('open'),
  created_at: z.string(),
});
export const createReportResponseSchema = z.object({ report: reportReceiptSchema });
export type CreateReportResponse = z.infer<typeof createReportResponseSchema>;

/** A report as the host sees it: in the `report.created` webhook (without `status` and `created_at`) and on `/api/v1/reports`. */
export const hostReportSchema = z.object({
  id: z.number().int(),
  reason: reportReasonSchema,
  details: z.string().nullable(),
  reporter_external_id: z.string().nullable(),
  reported_external_id: z.string().nullable(),
  messenger_user_id: z.number().int().describe('The reported conversation’s id.'),
  /** The conversation's latest messages (at most 50, oldest first) as they were when reported. */
  messages: z.array(hostChatSchema),
  status: reportStatusSchema,
  created_at: z.string(),
});
export type HostReport = z.infer<typeof hostReportSchema>;
export const reportCreatedWebhookDataSchema = z.object({
  report: hostReportSchema.omit({ status: true, created_at: true }),
});
export type ReportCreatedWebhookData = z.infer<typeof reportCreatedWebhookDataSchema>;

export const reportsQuerySchema = z.object({
  status: reportStatusSchema.optional(),
  cursor: z.string().optional(),
});
export const reportsResponseSchema = z.object({
  reports: z.array(hostReportSchema),
  next_cursor: z.string().nullable(),
});
export const reportParamsSchema = z.object({ id: idSchema });
export const updateReportBodySchema = z
  .object({
    status: z.enum(['resolved', 'dismissed'], { error: 'must be resolved or dismissed.' }),
  })
  .strict();
export const reportResponseSchema = z.object({ report: hostReportSchema });

/** `PUT /api/v1/users/{externalId}` gains `suspended` (see `upsertUserBodySchema`). */
export const suspendedSchema = z.boolean({ error: 'must be true or false.' });
