import { z } from 'zod';
import { idSchema, nullableJobIdSchema, typedText } from './api-fields.js';
import { ATTACHMENTS_PER_MESSAGE } from './attachments.js';
import {
  chatSchema,
  jobSchema,
  messageGroupSchema,
  messengerUserSchema,
  receiverSchema,
} from './models.js';
import { MESSAGE_MAX_LENGTH, PAGE_LIMIT_MAX } from './paths.js';
import { hasVisibleText } from './text.js';

/** A conversation's messages: reading a page of them, and sending one. */

export const getMessageBodySchema = z.object({
  receiver_id: idSchema.describe('The other party’s user id.'),
  job_id: nullableJobIdSchema
    .optional()
    .transform((value) => value ?? null)
    .describe('The conversation’s job id; absent, empty or `null`: the conversation about no job.'),
  before: idSchema
    .optional()
    .describe('Only messages older than this message id (the next page back); absent: the latest.'),
  limit: z
    .union([z.number(), z.string().regex(/^\d{1,20}$/)])
    .transform(Number)
    .pipe(z.number().int().min(1).max(PAGE_LIMIT_MAX))
    .optional()
    .describe('How many messages at most (1–100); absent: the server’s default page (50).'),
});
export type GetMessageBody = z.input<typeof getMessageBodySchema>;

export const applicationGroupSchema = z.object({
  id: z.number().int().describe('The group’s id.'),
  name: z.string().describe('The group’s name, as the host set it (e.g. `Shortlist`).'),
});

export const getMessageResponseSchema = z.object({
  receiver: receiverSchema.describe('The other party of the conversation.'),
  receiverJob: jobSchema.nullable().describe('The conversation’s job; null: about no job.'),
  messages: z
    .array(messageGroupSchema)
    .describe('The page of messages grouped by day, oldest first; reading them marks them seen.'),
  has_more: z
    .boolean()
    .describe('True when older messages remain: ask again with `before` set to the oldest id.'),
  messengerUser: messengerUserSchema.describe('The conversation as the viewer sees it.'),
  application_group: applicationGroupSchema
    .nullable()
    .describe(
      'For a company viewer, the candidate’s application group for the job (set by the host); null otherwise.',
    ),
});
export type GetMessageResponse = z.infer<typeof getMessageResponseSchema>;

/** A message's text that must show something (the integration API's `message.text`). */
export const visibleMessageTextSchema = typedText('message', MESSAGE_MAX_LENGTH, 'visible');

/** A message's text as sends and edits take it (empty only with files: the services check). */
export const messageTextSchema = typedText('message', MESSAGE_MAX_LENGTH);

export const sendMessageBodySchema = z
  .object({
    receiver_id: idSchema.describe('The other party’s user id.'),
    messenger_user: idSchema.describe(
      'The conversation’s id (a `MessengerUser` id of which the sender is a party).',
    ),
    job_id: nullableJobIdSchema.describe(
      'The conversation’s job id; `null` or empty: the conversation about no job.',
    ),
    message: messageTextSchema.describe(
      'The text (trimmed, at most 5000 characters); empty only with files.',
    ),
    client_id: z
      .string()
      .uuid()
      .optional()
      .describe(
        'A UUID the sender picks, echoed in the answer and the live event: the same `client_id` again sends nothing twice.',
      ),
    /** The sender's own unused uploads; with them the text may be empty. */
    attachment_ids: z
      .array(idSchema)
      .max(ATTACHMENTS_PER_MESSAGE, `At most ${ATTACHMENTS_PER_MESSAGE} files per message.`)
      .refine((ids) => new Set(ids).size === ids.length, 'Each file may be attached once.')
      .optional()
      .describe('Ids of the sender’s own unused uploads to send with it (at most 5, each once).'),
  })
  .superRefine((body, context) => {
    // Only spaces, zero-width characters or bidi marks: nothing to show; fine only with files.
    const hasFiles = (body.attachment_ids?.length ?? 0) > 0;
    if (hasVisibleText(body.message) || (hasFiles && body.message === '')) return;
    context.addIssue({
      code: 'custom',
      path: ['message'],
      message: 'The message field is required.',
    });
  });
export type SendMessageBody = z.input<typeof sendMessageBodySchema>;

export const sendMessageResponseSchema = z.object({
  message: chatSchema.describe('The message as stored.'),
  messengerUser: messengerUserSchema.describe(
    'The conversation as the sender sees it after the send.',
  ),
});
export type SendMessageResponse = z.infer<typeof sendMessageResponseSchema>;
