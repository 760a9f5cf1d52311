import type {
  OpenEmbedConversationBody,
  OpenEmbedConversationResponse,
} from '../../../../shared/embed-conversations.js';
import { paths } from '../../../../shared/paths.js';
import type { ApiClient } from '../../../lib/api-client.js';

/**
 * `POST /messenger/embed/conversations`: the conversation of these host ids, opened or created
 * (without a message), as the viewer sees it, with its host ids.
 */
export const openEmbedConversation = (
  client: ApiClient,
  body: OpenEmbedConversationBody,
): Promise<OpenEmbedConversationResponse> =>
  client.post<OpenEmbedConversationResponse>(paths.embedConversations, body);
