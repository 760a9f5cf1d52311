import { useMutation } from '@tanstack/react-query';
import { messageChangesPaths } from '../../../../shared/message-changes-paths.js';
import type { EditMessageBody, EditMessageResponse } from '../../../../shared/message-changes.js';
import type { ApiClient } from '../../../lib/api-client.js';
import { useApiClient } from '../../../lib/api-provider.js';
import { usePublishLiveEvent } from '../../../lib/realtime.js';

/** `PATCH /user/messages/{id}` `{message}`: the edited message and the conversation as the sender sees it. */
export const editMessage = (
  client: ApiClient,
  id: number,
  body: EditMessageBody,
): Promise<EditMessageResponse> =>
  client.patch<EditMessageResponse>(messageChangesPaths.message(id), body);

/**
 * Edits the text of one of the viewer's messages. The answer is what the sender's other tabs get as
 * the `MessageUpdated` event: it is published as that event, so the thread and the lists take it
 * where they take the live event.
 */
export const useEditMessage = () => {
  const client = useApiClient();
  const publish = usePublishLiveEvent();
  return useMutation({
    mutationFn: ({ id, message }: { id: number; message: string }) =>
      editMessage(client, id, { message }),
    onSuccess: ({ message, messengerUser }) =>
      publish('MessageUpdated', {
        messenger_user_id: message.messenger_user_id,
        message,
        messengerUser,
      }),
  });
};
