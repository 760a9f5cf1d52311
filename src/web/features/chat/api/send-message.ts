import type { SendMessageBody, SendMessageResponse } from '../../../../shared/api.js';
import type { ApiClient } from '../../../lib/api-client.js';
import { apiPaths } from '../../../lib/contract.js';

/** `POST /user/send/message`; a repeated `client_id` returns the already stored message. */
export const sendMessage = (
  client: ApiClient,
  body: SendMessageBody,
): Promise<SendMessageResponse> => client.post<SendMessageResponse>(apiPaths.sendMessage, body);
