import type { MessengerUserResponse } from '../../../../shared/conversations.js';
import type { ApiClient } from '../../../lib/api-client.js';
import { apiPaths } from '../../../lib/contract.js';

/**
 * `GET /user/send/message/unseen/{id}` (the path says "unseen"; the call marks the viewer's unread
 * messages of the conversation seen, so it needs the CSRF header although it is a GET). Its answer
 * is the conversation as it is now; the callers put it where they need it (the lists, or the
 * opening of a conversation no loaded list holds).
 */
export const markSeen = (
  client: ApiClient,
  messengerUserId: number,
): Promise<MessengerUserResponse> =>
  client.get<MessengerUserResponse>(apiPaths.unseen(messengerUserId), { csrf: true });
