import { getMessages } from '../features/chat/api/get-messages.js';
import { sendMessage } from '../features/chat/api/send-message.js';
import { logout } from '../features/auth/api/logout.js';
import {
  archiveConversation,
  unarchiveConversation,
} from '../features/conversations/api/archive-conversation.js';
import { getInitialData } from '../features/conversations/api/get-initial-data.js';
import { markUnseen } from '../features/conversations/api/mark-unseen.js';
import type { ApiClient } from '../lib/api-client.js';
import type { MessengerApi } from '../lib/services.js';

/** Binds every call of the page to one API client. */
export const createMessengerApi = (client: ApiClient): MessengerApi => ({
  getInitialData: (params) => getInitialData(client, params),
  getMessages: (body) => getMessages(client, body),
  sendMessage: (body) => sendMessage(client, body),
  markUnseen: (id) => markUnseen(client, id),
  archiveConversation: (id) => archiveConversation(client, id),
  unarchiveConversation: (id) => unarchiveConversation(client, id),
  logout: () => logout(client),
});
