import { EMBED_CONVERSATIONS_PATH } from '../../../../shared/embed-protocol.js';
import type { EmbedConversationBody, EmbedConversationResponse } from '../../../../shared/embed.js';
import type { ApiClient } from '../../../lib/api-client.js';

/**
 * `POST /messenger/embed/conversations`: the conversation of these host ids, opened or created
 * (without a message), as the viewer sees it, with its host ids.
 */
export const openEmbedConversation = (
  client: ApiClient,
  body: EmbedConversationBody,
): Promise<EmbedConversationResponse> =>
  client.post<EmbedConversationResponse>(EMBED_CONVERSATIONS_PATH, body);
