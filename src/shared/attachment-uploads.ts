import { z } from 'zod';
import { uploadedAttachmentSchema } from './models.js';

/** Uploading a file to send with a message (`POST /api/attachments`); the limits are in attachments.ts. */

export { uploadedAttachmentSchema };
export type UploadedAttachment = z.infer<typeof uploadedAttachmentSchema>;
export const uploadAttachmentResponseSchema = z.object({
  attachment: uploadedAttachmentSchema.describe(
    'The stored upload: send its `id` in `attachment_ids` of a message (unused uploads are removed after a while).',
  ),
});
export type UploadAttachmentResponse = z.infer<typeof uploadAttachmentResponseSchema>;
/** The multipart body of an upload: one file in the field `file`. */
export const uploadAttachmentBodySchema = z.object({
  file: z.string().optional().describe('The file (binary), at most 10 MiB.'),
});
