import { z } from 'zod';

/** Roles of a signed-in user. An owner acts exactly as a company. */
export const roleSchema = z.enum(['candidate', 'company', 'owner']);
export type Role = z.infer<typeof roleSchema>;

export const isCompanySide = (role: Role): boolean => role !== 'candidate';

export const jobSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  status: z.string(),
  deadline: z.string().nullable(),
});
export type Job = z.infer<typeof jobSchema>;

export const messengerUserSchema = z.object({
  id: z.number().int(),
  job_id: z.number().int().nullable(),
  job: jobSchema.nullable(),
  candidate_id: z.number().int(),
  company_id: z.number().int(),
  candidate: z.object({
    id: z.number().int(),
    user: z.object({ name: z.string(), image_url: z.string().nullable() }),
  }),
  company: z.object({
    id: z.number().int(),
    logo: z.string().nullable(),
    user: z.object({ name: z.string() }),
  }),
  last_message: z.string().nullable(),
  last_message_time: z.string().nullable(),
  last_message_at: z.string().nullable(),
  is_seen_messages_count: z.number().int(),
  company_archive: z.union([z.literal(0), z.literal(1)]),
  candidate_archive: z.union([z.literal(0), z.literal(1)]),
  /**
   * Present (true) only when the other party was erased: the conversation keeps its
   * messages but takes no new ones, and that party is named "Deleted user".
   */
  closed: z.literal(true).optional(),
  /** The viewer blocked the other party (contract Part 3, "Keeping people safe"). */
  blocked: z.boolean(),
  /**
   * The other party has a live socket (or had one less than 15 s ago) and shows it
   * (`show_online`); false for someone who hides it.
   */
  other_online: z.boolean(),
  /** When the other party was last online; null while online, never seen, or hidden. */
  other_last_seen_at: z.string().nullable(),
});
export { DELETED_USER_NAME } from './text.js';
export type MessengerUser = z.infer<typeof messengerUserSchema>;

/** An upload as its uploader sees it (`POST /user/attachments` → 201). */
export const uploadedAttachmentSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  size: z.number().int(),
  mime: z.string(),
  width: z.number().int().optional(),
  height: z.number().int().optional(),
});

/** A file sent with a message; `url` (and `thumbnail_url` for images) answer only its two parties. */
export const chatAttachmentSchema = uploadedAttachmentSchema.extend({
  url: z.string(),
  thumbnail_url: z.string().optional(),
});
export type ChatAttachment = z.infer<typeof chatAttachmentSchema>;

export const chatSchema = z.object({
  id: z.number().int(),
  sender_id: z.number().int(),
  receiver_id: z.number().int(),
  job_id: z.number().int().nullable(),
  messenger_user_id: z.number().int(),
  message: z.string(),
  messaging_date: z.string(),
  messaging_time: z.string(),
  created_at: z.string(),
  seen_at: z.string().nullable(),
  client_id: z.string().nullable(),
  sender: z.object({ id: z.number().int(), name: z.string() }),
  /** The files sent with the message (empty for text only; empty once deleted). */
  attachments: z.array(chatAttachmentSchema),
  /** When its sender last edited the text; null: never (missing from a server older than edits: null). */
  edited_at: z.string().nullable().default(null),
  /** When its sender deleted it (then `message` is "" and `attachments` empty); null: not deleted. */
  deleted_at: z.string().nullable().default(null),
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
  id: z.number().int(),
  logo: z.string().nullable().optional(),
  user: z.object({ name: z.string(), image_url: z.string().nullable().optional() }),
});
export type Receiver = z.infer<typeof receiverSchema>;

export const authUserSchema = z.object({
  id: z.number().int(),
  role: roleSchema,
  name: z.string(),
  /** The host suspended the account: it reads, but cannot send, type or upload. */
  suspended: z.boolean(),
});
export type AuthUser = z.infer<typeof authUserSchema>;

export const messageGroupSchema = z.object({
  date: z.string(),
  chats: z.array(chatSchema),
});
export type MessageGroup = z.infer<typeof messageGroupSchema>;
