import type { ApiClient } from '../../../lib/api-client.js';
import { apiPaths } from '../../../lib/contract.js';

/** `POST /user/messenger/{id}/typing`: the other party hears that the viewer is typing (204). */
export const sendTyping = (client: ApiClient, messengerUserId: number): Promise<void> =>
  client.post<void>(apiPaths.typing(messengerUserId));
