import type { MessengerUserResponse } from '../../../../shared/api.js';
import type { ApiClient } from '../../../lib/api-client.js';
import { apiPaths } from '../../../lib/contract.js';

/** `POST /user/messenger/{id}/archive`: sets the viewer's own archive flag. */
export const archiveConversation = (
  client: ApiClient,
  messengerUserId: number,
): Promise<MessengerUserResponse> =>
  client.post<MessengerUserResponse>(apiPaths.archive(messengerUserId));

/** `POST /user/messenger/{id}/unarchive`. */
export const unarchiveConversation = (
  client: ApiClient,
  messengerUserId: number,
): Promise<MessengerUserResponse> =>
  client.post<MessengerUserResponse>(apiPaths.unarchive(messengerUserId));
