import { z } from 'zod';
import { idSchema } from './api-fields.js';
import { messageTextSchema } from './messages.js';
import { chatSchema, messengerUserSchema } from './models.js';

/**
 * Editing and deleting a message (contract Part 3, working faster). The path, the edit window and
 * its refusal are zod-free in `message-changes-paths.ts`.
 */
export * from './message-changes-paths.js';

export const messageParamsSchema = z.object({
  id: idSchema.describe('The message’s id (one the viewer sent).'),
});
/**
 * `PATCH /user/messages/{id}` `{message}`: the send's text rules (trimmed, at most 5000, no NUL);
 * empty only when the message has files (the service checks, 422 on `message`).
 */
export const editMessageBodySchema = z.object({
  message: messageTextSchema.describe(
    'The new text (trimmed, at most 5000 characters); empty only when the message has files.',
  ),
});
export type EditMessageBody = z.input<typeof editMessageBodySchema>;
/** 200: the updated message in the shape the send answers with. */
export const editMessageResponseSchema = z.object({
  message: chatSchema.describe('The message after the change.'),
  messengerUser: messengerUserSchema.describe(
    'The conversation as the viewer sees it after the change.',
  ),
});
export type EditMessageResponse = z.infer<typeof editMessageResponseSchema>;
