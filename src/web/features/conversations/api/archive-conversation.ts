import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessengerUserResponse } from '../../../../shared/conversations.js';
import type { MessengerUser, Role } from '../../../../shared/models.js';
import type { ApiClient } from '../../../lib/api-client.js';
import { useApiClient } from '../../../lib/api-provider.js';
import { apiPaths } from '../../../lib/contract.js';
import {
  conversationKeys,
  refetchFirstPages,
  replaceCachedConversation,
} from '../utils/conversation-cache.js';
import { withArchiveFlag } from '../utils/conversation-view.js';

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

interface ArchiveVariables {
  /** The conversation as it is now (not as it will be): a failed call puts it back as it is. */
  item: MessengerUser;
  archive: boolean;
}

/**
 * Archive / unarchive: the row moves at once; the answer (the conversation as it is now) updates
 * the cached lists, and the row moves back if the call fails. The list is not reloaded.
 */
export const useArchiveConversation = (viewerRole: Role | undefined) => {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ item, archive }: ArchiveVariables) =>
      archive ? archiveConversation(client, item.id) : unarchiveConversation(client, item.id),
    onMutate: async ({ item, archive }) => {
      if (!viewerRole) return { interruptedFetch: false };
      // a list fetch in flight (a catch-up after a reconnection) is cancelled so that it cannot
      // undo the move; it is made again once the call is over
      const interruptedFetch = queryClient.isFetching({ queryKey: conversationKeys.all }) > 0;
      await queryClient.cancelQueries({ queryKey: conversationKeys.all });
      replaceCachedConversation(queryClient, withArchiveFlag(item, viewerRole, archive));
      return { interruptedFetch };
    },
    // the moved row may be on no loaded page (older than the last loaded archived row): the
    // counters then go from the row as it was moved
    onSuccess: ({ messengerUser }, { item, archive }) => {
      replaceCachedConversation(
        queryClient,
        messengerUser,
        viewerRole ? withArchiveFlag(item, viewerRole, archive) : undefined,
      );
    },
    onError: (error, { item, archive }) => {
      console.error(error);
      replaceCachedConversation(
        queryClient,
        item,
        viewerRole ? withArchiveFlag(item, viewerRole, archive) : undefined,
      );
    },
    onSettled: (_answer, _error, _variables, context) => {
      if (context?.interruptedFetch) void refetchFirstPages(queryClient);
    },
  });
};
