import { z } from 'zod';
import { messengerUserSchema } from './models.js';
import { EMBED_SOURCE } from './embed-protocol.js';

/**
 * The embedded messenger's messages (src/shared/embed-protocol.ts has the zod-free constants and
 * types embed.js bundles) and the page calls of embedding.
 */

const source = z.literal(EMBED_SOURCE).describe('Always "job-messenger".');
const externalId = z.string().min(1).max(191);

export const embedConversationRefSchema = z.object({
  id: z.number().int().positive().describe('The conversation (messenger user id).'),
  company_external_id: z.string().describe("The company's id on the host."),
  candidate_external_id: z.string().describe("The candidate's id on the host."),
  job_external_id: z.string().nullable().describe("The job's id on the host, or null."),
});

/** Host → frame: open (or create) the conversation of these host ids. */
export const openMessageSchema = z.object({
  source,
  type: z.literal('open').describe('Open (or create) a conversation.'),
  company: externalId.describe("The company's id on the host."),
  candidate: externalId.describe("The candidate's id on the host."),
  job: externalId.nullable().optional().describe("The job's id on the host."),
});
export const hostMessageSchema = z.discriminatedUnion('type', [openMessageSchema]);

/** Frame → host. */
export const frameMessageSchema = z.discriminatedUnion('type', [
  z.object({ source, type: z.literal('ready').describe('The first data is shown.') }),
  z.object({
    source,
    type: z.literal('unread').describe("The viewer's unread total (after ready, then on changes)."),
    count: z.number().int().nonnegative().describe('Unread messages over all conversations.'),
  }),
  z
    .object({ source, type: z.literal('conversation').describe('A conversation was opened.') })
    .extend(embedConversationRefSchema.shape),
  z.object({
    source,
    type: z.literal('signin-required').describe('The session is gone: mount again, signed in.'),
  }),
]);

/** `POST /messenger/embed/conversations` */
export const embedConversationBodySchema = z.object({
  company: externalId.describe("The company's id on the host."),
  candidate: externalId.describe("The candidate's id on the host."),
  job: externalId.nullable().optional().describe("The job's id on the host, or none."),
});
export const embedConversationResponseSchema = z.object({
  messengerUser: messengerUserSchema.describe('The conversation as the viewer sees it.'),
  conversation: embedConversationRefSchema.describe('Its host ids.'),
});

/** `GET /messenger/embed/conversations/{id}` */
export const embedConversationRefResponseSchema = z.object({
  conversation: embedConversationRefSchema.describe('Its host ids.'),
});

export type HostMessageData = z.infer<typeof hostMessageSchema>;
export type FrameMessageData = z.infer<typeof frameMessageSchema>;
export type EmbedConversationBody = z.infer<typeof embedConversationBodySchema>;
export type EmbedConversationResponse = z.infer<typeof embedConversationResponseSchema>;
export type EmbedConversationRefResponse = z.infer<typeof embedConversationRefResponseSchema>;
