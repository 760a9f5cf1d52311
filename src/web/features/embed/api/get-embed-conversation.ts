import type { EmbedConversationResponse } from '../../../../shared/embed-conversations.js';
import { paths } from '../../../../shared/paths.js';
import type { ApiClient } from '../../../lib/api-client.js';

/** `GET /messenger/embed/conversations/{id}`: a conversation's host ids (the `conversation` event). */
export const getEmbedConversation = (
  client: ApiClient,
  id: number,
): Promise<EmbedConversationResponse> =>
  client.get<EmbedConversationResponse>(paths.embedConversation(id));
