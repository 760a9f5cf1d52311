import { z } from 'zod';
import { hostConversationSchema, messengerUserSchema } from './models.js';
import { externalIdSchema } from './integration.js';

/**
 * The embedded page's own calls (ADR 022, docs/embedding.md): it opens a conversation by the host's
 * ids, and learns the host ids of one the user opened, to tell the host page (`conversation`).
 */

/** A conversation by the host's ids, as the `conversation` event gives it to the host page. */
export const embedConversationSchema = hostConversationSchema.pick({
  id: true,
  company_external_id: true,
  candidate_external_id: true,
  job_external_id: true,
});
export type EmbedConversation = z.infer<typeof embedConversationSchema>;

/** `POST /messenger/embed/conversations`: open (or create) the viewer's conversation by host ids. */
export const openEmbedConversationBodySchema = z
  .object({
    company: externalIdSchema.describe(
      'The company’s id on the host site; the viewer must be this company or the candidate.',
    ),
    candidate: externalIdSchema.describe(
      'The candidate’s id on the host site; the viewer must be this candidate or the company.',
    ),
    job: externalIdSchema
      .nullable()
      .optional()
      .describe(
        'The id of the job the conversation is about (a job of that company); null or absent: about no job.',
      ),
  })
  .strict();
export type OpenEmbedConversationBody = z.infer<typeof openEmbedConversationBodySchema>;

export const openEmbedConversationResponseSchema = z.object({
  messengerUser: messengerUserSchema.describe('The conversation as the viewer sees it.'),
  conversation: embedConversationSchema.describe('The conversation by the host’s ids.'),
});
export type OpenEmbedConversationResponse = z.infer<typeof openEmbedConversationResponseSchema>;

/** `GET /messenger/embed/conversations/{id}` (its id: `messengerUserParamsSchema`). */
export const embedConversationResponseSchema = z.object({
  conversation: embedConversationSchema.describe('The conversation by the host’s ids.'),
});
export type EmbedConversationResponse = z.infer<typeof embedConversationResponseSchema>;
