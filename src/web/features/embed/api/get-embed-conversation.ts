import { embedConversationPath } from '../../../../shared/embed-protocol.js';
import type { EmbedConversationRefResponse } from '../../../../shared/embed.js';
import type { ApiClient } from '../../../lib/api-client.js';

/** `GET /messenger/embed/conversations/{id}`: a conversation's host ids (the `conversation` event). */
export const getEmbedConversation = (
  client: ApiClient,
  id: number,
): Promise<EmbedConversationRefResponse> =>
  client.get<EmbedConversationRefResponse>(embedConversationPath(id));
