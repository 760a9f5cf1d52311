import type { MessengerUserResponse } from '../../../../shared/api.js';
import type { ApiClient } from '../../../lib/api-client.js';
import { apiPaths } from '../../../lib/contract.js';

/** `GET /user/send/message/unseen/{id}`: marks the viewer's unread messages as seen (needs the CSRF header). */
export const markSeen = (
  client: ApiClient,
  messengerUserId: number,
): Promise<MessengerUserResponse> =>
  client.get<MessengerUserResponse>(apiPaths.unseen(messengerUserId), { csrf: true });
