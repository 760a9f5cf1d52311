import { useMutation } from '@tanstack/react-query';
import type { ApiClient } from '../../../lib/api-client.js';
import { useApiClient } from '../../../lib/api-provider.js';
import { safetyPaths } from '../../../lib/contract.js';
import type { BlockedChange } from '../utils/blocked-change.js';

/** `POST /user/blocks {user_id}`: 201, or 200 when already blocked. */
export const blockUser = (client: ApiClient, userId: number): Promise<unknown> =>
  client.post<unknown>(safetyPaths.blocks, { user_id: userId });

/**
 * Blocks a user; `onBlockedChange` shows it on every conversation held with them (a block
 * is of the person, whatever the job).
 */
export const useBlockUser = (onBlockedChange: BlockedChange) => {
  const client = useApiClient();
  return useMutation({
    mutationFn: (userId: number) => blockUser(client, userId),
    onSuccess: (_answer, userId) => onBlockedChange(userId, true),
  });
};
