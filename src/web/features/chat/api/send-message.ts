import { useMutation } from '@tanstack/react-query';
import type { SendMessageBody, SendMessageResponse } from '../../../../shared/messages.js';
import type { ApiClient } from '../../../lib/api-client.js';
import { useApiClient } from '../../../lib/api-provider.js';
import { apiPaths } from '../../../lib/contract.js';
import { usePublishLiveEvent } from '../../../lib/realtime.js';

/** `POST /user/send/message`; a repeated `client_id` returns the already stored message. */
export const sendMessage = (
  client: ApiClient,
  body: SendMessageBody,
): Promise<SendMessageResponse> => client.post<SendMessageResponse>(apiPaths.sendMessage, body);

/**
 * A send. Its answer is what the sender's other tabs get as the `ChatMessage` event (the message
 * and the conversation as the sender sees it): it is published as that event, so the thread and
 * the lists take it where they take the live event.
 */
export const useSendMessageMutation = () => {
  const client = useApiClient();
  const publish = usePublishLiveEvent();
  return useMutation({
    mutationFn: (body: SendMessageBody) => sendMessage(client, body),
    // sent even when the browser says it is offline: a send that cannot go out fails at once and
    // waits as "Not sent" with its Retry (a paused mutation would wait unseen)
    networkMode: 'always',
    onSuccess: ({ message, messengerUser }) =>
      publish('ChatMessage', { chatMessage: message, messengerUser }),
  });
};
