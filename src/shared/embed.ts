import { z } from 'zod';
import { embedConversationSchema } from './embed-conversations.js';
import { externalIdSchema } from './integration.js';
import { EMBED_SOURCE } from './embed-protocol.js';

/**
 * The embedded messenger's messages (src/shared/embed-protocol.ts has the zod-free constants and
 * types embed.js bundles); the page calls of embedding are in src/shared/embed-conversations.ts.
 */

const source = z.literal(EMBED_SOURCE).describe('Always "job-messenger".');
const externalId = externalIdSchema;

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
    .extend(embedConversationSchema.shape),
  z.object({
    source,
    type: z.literal('signin-required').describe('The session is gone: mount again, signed in.'),
  }),
]);

export type HostMessageData = z.infer<typeof hostMessageSchema>;
export type FrameMessageData = z.infer<typeof frameMessageSchema>;
