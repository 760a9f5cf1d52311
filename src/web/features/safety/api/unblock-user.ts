import { useMutation } from '@tanstack/react-query';
import type { ApiClient } from '../../../lib/api-client.js';
import { useApiClient } from '../../../lib/api-provider.js';
import { safetyPaths } from '../../../lib/contract.js';
import type { BlockedChange } from '../utils/blocked-change.js';

/** `DELETE /user/blocks/{userId}`: 204. */
export const unblockUser = (client: ApiClient, userId: number): Promise<void> =>
  client.delete<void>(safetyPaths.block(userId));

/**
 * Unblocks a user; `onBlockedChange` shows it on every conversation held with them (a block
 * is of the person, whatever the job).
 */
export const useUnblockUser = (onBlockedChange: BlockedChange) => {
  const client = useApiClient();
  return useMutation({
    mutationFn: (userId: number) => unblockUser(client, userId),
    onSuccess: (_answer, userId) => onBlockedChange(userId, false),
  });
};
