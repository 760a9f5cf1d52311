import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Chat } from '../../../../shared/models.js';
import { messageChangesPaths } from '../../../../shared/message-changes-paths.js';
import type { ApiClient } from '../../../lib/api-client.js';
import { useApiClient } from '../../../lib/api-provider.js';
import { usePublishLiveEvent } from '../../../lib/realtime.js';
import { deletedVersion, recordAfterDeletion } from '../utils/message-edits.js';
import { threadKeys, type ThreadData, type ThreadKeyParts } from '../utils/thread-cache.js';

/** `DELETE /user/messages/{id}` → 204. */
export const deleteMessage = (client: ApiClient, id: number): Promise<void> =>
  client.delete<void>(messageChangesPaths.message(id));

/**
 * Deletes one of the viewer's messages in the open conversation (`parts`). The answer is empty:
 * the page makes the `MessageUpdated` event the sender's other tabs get from what it holds (the
 * message kept in its place with no text nor files; when it was the latest, the conversation's
 * preview becomes the newest remaining message of the loaded thread) and publishes it, so the
 * thread and the lists take it where they take the live event.
 */
export const useDeleteMessage = (parts: ThreadKeyParts) => {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const publish = usePublishLiveEvent();
  return useMutation({
    mutationFn: (chat: Chat) => deleteMessage(client, chat.id),
    onSuccess: (_answer, chat) => {
      const deleted = deletedVersion(chat, new Date().toISOString());
      const record = recordAfterDeletion(
        queryClient.getQueryData<ThreadData>(threadKeys.thread(parts)),
        chat.id,
      );
      if (!record) return;
      publish('MessageUpdated', {
        messenger_user_id: chat.messenger_user_id,
        message: deleted,
        messengerUser: record,
      });
    },
  });
};
