import type { GetMessageBody, GetMessageResponse } from '../../../../shared/api.js';
import type { ApiClient } from '../../../lib/api-client.js';
import { apiPaths } from '../../../lib/contract.js';

/** `POST /user/get/message`: the latest page, or older ones with `before` (a chat id). */
export const getMessages = (client: ApiClient, body: GetMessageBody): Promise<GetMessageResponse> =>
  client.post<GetMessageResponse>(apiPaths.getMessage, body);
