import { z } from 'zod';

/** Roles of a signed-in user. An owner acts exactly as a company. */
export const roleSchema = z.enum(['candidate', 'company', 'owner']);
export type Role = z.infer<typeof roleSchema>;

export const isCompanySide = (role: Role): boolean => role !== 'candidate';

export const jobSchema = z.object({
  id: z.number().int().describe('The job’s id in the messenger (not the host’s external id).'),
  title: z.string().describe('The job’s title, as the host set it (at most 300 characters).'),
  status: z
    .string()
    .describe(
      '`active` or `inactive`, as the host set it; an inactive job’s conversations stay readable.',
    ),
  deadline: z
    .string()
    .nullable()
    .describe('The application deadline as a date (YYYY-MM-DD); null: none.'),
});
export type Job = z.infer<typeof jobSchema>;

export const messengerUserSchema = z.object({
  id: z
    .number()
    .int()
    .describe(
      'The conversation’s id (the `messenger_user_id` of its messages, events and webhooks).',
    ),
  job_id: z
    .number()
    .int()
    .nullable()
    .describe('The job the conversation is about; null: not about a job.'),
  job: jobSchema.nullable().describe('That job; null when the conversation is about no job.'),
  candidate_id: z.number().int().describe('The candidate’s user id.'),
  company_id: z.number().int().describe('The company’s user id.'),
  candidate: z
    .object({
      id: z.number().int().describe('The candidate’s user id (as `candidate_id`).'),
      user: z
        .object({
          name: z.string().describe('The candidate’s name, as the host set it.'),
          image_url: z
            .string()
            .nullable()
            .describe(
              'The candidate’s photo (an http(s) URL from the host, or a path on this server); null: none, show initials.',
            ),
        })
        .describe('The candidate as a person.'),
    })
    .describe('The candidate of the conversation.'),
  company: z
    .object({
      id: z.number().int().describe('The company’s user id (as `company_id`).'),
      logo: z
        .string()
        .nullable()
        .describe(
          'The company’s logo (an http(s) URL from the host, or a path on this server); null: none.',
        ),
      user: z
        .object({ name: z.string().describe('The company’s name, as the host set it.') })
        .describe('The company as a person.'),
    })
    .describe('The company of the conversation.'),
  last_message: z
    .string()
    .nullable()
    .describe(
      'A preview of the latest message’s text (at most 100 characters); null: no message yet.',
    ),
  last_message_time: z
    .string()
    .nullable()
    .describe(
      'When the latest message was sent, relative to the answer, in English (e.g. "5 minutes ago"); null: no message yet. Clients should format `last_message_at` instead.',
    ),
  last_message_at: z
    .string()
    .nullable()
    .describe(
      'When the latest message was sent (ISO 8601, UTC, with milliseconds); null: no message yet.',
    ),
  is_seen_messages_count: z
    .number()
    .int()
    .describe('How many messages the viewer has received in this conversation and not yet seen.'),
  company_archive: z
    .union([z.literal(0), z.literal(1)])
    .describe(
      '1 when the company archived the conversation (only the company’s own lists look at it).',
    ),
  candidate_archive: z
    .union([z.literal(0), z.literal(1)])
    .describe(
      '1 when the candidate archived the conversation (only the candidate’s own lists look at it).',
    ),
  /**
   * Present (true) only when the other party was erased: the conversation keeps its
   * messages but takes no new ones, and that party is named "Deleted user".
   */
  closed: z
    .literal(true)
    .optional()
    .describe(
      'Present (true) only when the other party was erased: the conversation keeps its messages, takes no new ones, and names that party "Deleted user".',
    ),
  /** The viewer blocked the other party (contract Part 3, "Keeping people safe"). */
  blocked: z
    .boolean()
    .describe('True when the viewer blocked the other party (neither can then send to the other).'),
  /**
   * The other party has a live socket (or had one less than 15 s ago) and shows it
   * (`show_online`); false for someone who hides it.
   */
  other_online: z
    .boolean()
    .describe(
      'True when the other party is on the page now (or was less than 15 seconds ago) and shows it; always false for someone who hides being online.',
    ),
  /** When the other party was last online; null while online, never seen, or hidden. */
  other_last_seen_at: z
    .string()
    .nullable()
    .describe(
      'When the other party was last online (ISO 8601, UTC); null while online, when never seen, or when they hide it.',
    ),
});
export { DELETED_USER_NAME } from './text.js';
export type MessengerUser = z.infer<typeof messengerUserSchema>;

/** An upload as its uploader sees it (`POST /user/attachments` → 201). */
export const uploadedAttachmentSchema = z.object({
  id: z.number().int().describe('The upload’s id: send it in `attachment_ids` of a message.'),
  name: z.string().describe('The file’s name as uploaded.'),
  size: z.number().int().describe('The file’s size in bytes.'),
  mime: z
    .string()
    .describe(
      'The file’s media type, as detected from its content (e.g. `image/png`, `application/pdf`).',
    ),
  width: z
    .number()
    .int()
    .optional()
    .describe('An image’s width in pixels; absent for other files.'),
  height: z
    .number()
    .int()
    .optional()
    .describe('An image’s height in pixels; absent for other files.'),
});

/** A file sent with a message; `url` (and `thumbnail_url` for images) answer only its two parties. */
export const chatAttachmentSchema = uploadedAttachmentSchema.extend({
  url: z
    .string()
    .describe(
      'Where to download the file (a path on this server); it answers only the message’s two parties.',
    ),
  thumbnail_url: z
    .string()
    .optional()
    .describe(
      'An image’s small preview (a path on this server, for the two parties only); absent for other files.',
    ),
});
export type ChatAttachment = z.infer<typeof chatAttachmentSchema>;

export const chatSchema = z.object({
  id: z.number().int().describe('The message’s id (increasing: a later message has a larger id).'),
  sender_id: z.number().int().describe('The user id of who sent it.'),
  receiver_id: z.number().int().describe('The user id of who received it.'),
  job_id: z
    .number()
    .int()
    .nullable()
    .describe('The job of its conversation; null: a conversation about no job.'),
  messenger_user_id: z
    .number()
    .int()
    .describe('The conversation’s id (the `id` of its `MessengerUser`).'),
  message: z
    .string()
    .describe(
      'The text (at most 5000 characters, trimmed); empty for files only and once deleted.',
    ),
  messaging_date: z.string().describe('The day it was sent (YYYY-MM-DD, UTC).'),
  messaging_time: z
    .string()
    .describe(
      'The time it was sent, in English, UTC (e.g. "9:30 AM"); clients should format `created_at` in the reader’s language and time zone instead.',
    ),
  created_at: z.string().describe('When it was sent (ISO 8601, UTC, with milliseconds).'),
  seen_at: z
    .string()
    .nullable()
    .describe(
      'When its receiver first saw it (ISO 8601, UTC); null: not yet seen, or hidden from the sender (the receiver read it with read receipts off, or the sender has them off: receipts work both ways).',
    ),
  client_id: z
    .string()
    .nullable()
    .describe(
      'The sender’s own id for the send (a UUID), to match the answer and the live event with the message being typed; null when none was given.',
    ),
  sender: z
    .object({
      id: z.number().int().describe('The sender’s user id (as `sender_id`).'),
      name: z.string().describe('The sender’s name; "Deleted user" once the sender was erased.'),
    })
    .describe('Who sent the message.'),
  /** The files sent with the message (empty for text only; empty once deleted). */
  attachments: z
    .array(chatAttachmentSchema)
    .describe('The files sent with the message (at most 5); empty for text only and once deleted.'),
  /** When its sender last edited the text; null: never (missing from a server older than edits: null). */
  edited_at: z
    .string()
    .nullable()
    .default(null)
    .describe('When its sender last edited the text (ISO 8601, UTC); null: never edited.'),
  /** When its sender deleted it (then `message` is "" and `attachments` empty); null: not deleted. */
  deleted_at: z
    .string()
    .nullable()
    .default(null)
    .describe(
      'When its sender deleted it (ISO 8601, UTC): then `message` is empty and `attachments` too; null: not deleted.',
    ),
});
export type Chat = z.infer<typeof chatSchema>;

/** The host's id of a user or a job; null when the messenger made it (not the integration API). */
const hostIdSchema = (what: string) =>
  z
    .string()
    .nullable()
    .describe(`The host’s own id of ${what}; null when the host did not make it.`);

/**
 * A message as the host sees it (the integration API and webhooks): the page's `Chat` with the
 * host's ids of its sender, receiver and job. `messenger_user_id` is the conversation's id.
 */
export const hostChatSchema = chatSchema.extend({
  messenger_user_id: chatSchema.shape.messenger_user_id.describe(
    'The conversation’s id (the `id` of the conversation, `conversation_id` of a webhook).',
  ),
  sender_external_id: hostIdSchema('the sender'),
  receiver_external_id: hostIdSchema('the receiver'),
  job_external_id: hostIdSchema('the conversation’s job (null too when it has none)'),
});
export type HostChat = z.infer<typeof hostChatSchema>;

/** A conversation as the host sees it: as its company sees it, with the host's ids of both parties and its job. */
export const hostConversationSchema = messengerUserSchema.extend({
  id: messengerUserSchema.shape.id.describe(
    'The conversation’s id: each message’s `messenger_user_id`, a webhook’s `conversation_id`.',
  ),
  company_external_id: hostIdSchema('the company'),
  candidate_external_id: hostIdSchema('the candidate'),
  job_external_id: hostIdSchema('the job (null too when it has none)'),
});
export type HostConversation = z.infer<typeof hostConversationSchema>;

export const receiverSchema = z.object({
  id: z.number().int().describe('The other party’s user id.'),
  logo: z
    .string()
    .nullable()
    .optional()
    .describe('A company’s logo (http(s) URL or a path on this server); null or absent: none.'),
  user: z
    .object({
      name: z.string().describe('The other party’s name; "Deleted user" once erased.'),
      image_url: z
        .string()
        .nullable()
        .optional()
        .describe(
          'A candidate’s photo (http(s) URL or a path on this server); null or absent: none.',
        ),
    })
    .describe('The other party as a person.'),
});
export type Receiver = z.infer<typeof receiverSchema>;

export const authUserSchema = z.object({
  id: z.number().int().describe('The signed-in user’s id.'),
  role: roleSchema.describe(
    '`candidate`, `company` or `owner` (an owner acts exactly as a company).',
  ),
  name: z.string().describe('The signed-in user’s name.'),
  /** The host suspended the account: it reads, but cannot send, type or upload. */
  suspended: z
    .boolean()
    .describe(
      'True when the host suspended the account: it reads, but cannot send, type or upload.',
    ),
});
export type AuthUser = z.infer<typeof authUserSchema>;

export const messageGroupSchema = z.object({
  date: z.string().describe('The day (YYYY-MM-DD, UTC) of the messages in this group.'),
  chats: z.array(chatSchema).describe('That day’s messages, oldest first.'),
});
export type MessageGroup = z.infer<typeof messageGroupSchema>;
