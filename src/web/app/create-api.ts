import { getDemoAccounts } from '../features/auth/api/get-demo-accounts.js';
import { login } from '../features/auth/api/login.js';
import { logout } from '../features/auth/api/logout.js';
import { attachmentExists } from '../features/chat/api/attachment-exists.js';
import { getMessages } from '../features/chat/api/get-messages.js';
import { sendMessage } from '../features/chat/api/send-message.js';
import { sendTyping } from '../features/chat/api/send-typing.js';
import { uploadAttachment } from '../features/chat/api/upload-attachment.js';
import {
  archiveConversation,
  unarchiveConversation,
} from '../features/conversations/api/archive-conversation.js';
import { getInitialData } from '../features/conversations/api/get-initial-data.js';
import { markSeen } from '../features/conversations/api/mark-seen.js';
import { getSettings } from '../features/settings/api/get-settings.js';
import { updateSettings } from '../features/settings/api/update-settings.js';
import type { Api } from '../lib/api.js';
import type { ApiClient } from '../lib/api-client.js';

/** Binds every call to one API client (the one place a new call is added besides its own file). */
export const createApi = (client: ApiClient): Api => ({
  login: (credentials) => login(client, credentials),
  getDemoAccounts: () => getDemoAccounts(client),
  logout: () => logout(client),
  getInitialData: (params) => getInitialData(client, params),
  getMessages: (body) => getMessages(client, body),
  sendMessage: (body) => sendMessage(client, body),
  uploadAttachment: (file, options) => uploadAttachment(client, file, options),
  attachmentExists: (id) => attachmentExists(client, id),
  markSeen: (id) => markSeen(client, id),
  sendTyping: (id) => sendTyping(client, id),
  archiveConversation: (id) => archiveConversation(client, id),
  unarchiveConversation: (id) => unarchiveConversation(client, id),
  getSettings: () => getSettings(client),
  updateSettings: (patch) => updateSettings(client, patch),
});
