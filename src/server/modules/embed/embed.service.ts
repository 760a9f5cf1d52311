import type {
  EmbedConversationResponse,
  OpenEmbedConversationBody,
  OpenEmbedConversationResponse,
} from '../../../shared/embed-conversations.js';
import type { AuthUser } from '../../../shared/models.js';
import { forbidden, HttpError, notFound } from '../../lib/http-error.js';
import type { IntegrationService } from '../integration/integration.service.js';
import type { MessengerService } from '../messenger/messenger.service.js';

export interface EmbedServiceOptions {
  /** Opens conversations by the host's ids, as `POST /api/v1/conversations` does. */
  integrationService: Pick<IntegrationService, 'startConversation' | 'externalIdOf' | 'hostIdsOf'>;
  messengerService: Pick<MessengerService, 'conversationFor'>;
}

/** Not a key: the embedded page never sends a message through the host's call. */
const EMBEDDED_PAGE = { key: 'embedded-page' };

/**
 * The embedded page's rules (ADR 022): the signed-in user opens one of their own conversations by
 * the host's ids (opened or created as the integration API does, without a message), and learns
 * the host's ids of a conversation they opened, for the host page's `conversation` event.
 */
export const createEmbedService = ({
  integrationService,
  messengerService,
}: EmbedServiceOptions) => ({
  async openConversation(
    viewer: AuthUser,
    body: OpenEmbedConversationBody,
  ): Promise<OpenEmbedConversationResponse> {
    const own = await integrationService.externalIdOf(viewer.id);
    if (own === null || (own !== body.company && own !== body.candidate))
      throw forbidden('You can open only your own conversations.');
    const { response } = await integrationService.startConversation(
      { company: body.company, candidate: body.candidate, job: body.job ?? null },
      EMBEDDED_PAGE,
    );
    const { id, company_external_id, candidate_external_id, job_external_id } =
      response.conversation;
    return {
      messengerUser: await messengerService.conversationFor(viewer, id),
      conversation: { id, company_external_id, candidate_external_id, job_external_id },
    };
  },

  /** One of the viewer's conversations by the host's ids; 404 for any other. */
  async conversation(viewer: AuthUser, id: number): Promise<EmbedConversationResponse> {
    const messengerUser = await messengerService.conversationFor(viewer, id).catch((error) => {
      // another pair's conversation is not found here, as it does not exist for the viewer
      if (error instanceof HttpError && error.statusCode === 403)
        throw notFound('Conversation not found.');
      throw error;
    });
    return { conversation: { id, ...(await integrationService.hostIdsOf(messengerUser)) } };
  },
});

export type EmbedService = ReturnType<typeof createEmbedService>;
