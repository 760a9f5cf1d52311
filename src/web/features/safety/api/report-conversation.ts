import { useMutation } from '@tanstack/react-query';
import type { CreateReportBody, CreateReportResponse } from '../../../../shared/safety.js';
import type { ApiClient } from '../../../lib/api-client.js';
import { useApiClient } from '../../../lib/api-provider.js';
import { safetyPaths } from '../../../lib/contract.js';
import type { BlockedChange } from '../utils/blocked-change.js';

/**
 * `POST /user/reports {messenger_user_id, reason, details?, block?}` → 201 `{report}`; at most 10
 * a day (429 beyond, with the server's message).
 */
export const reportConversation = (
  client: ApiClient,
  body: CreateReportBody,
): Promise<CreateReportResponse> => client.post<CreateReportResponse>(safetyPaths.reports, body);

/** A report; with `block: true` it also blocked the other party (`userId`), shown by `onBlockedChange`. */
export const useReportConversation = (onBlockedChange: BlockedChange) => {
  const client = useApiClient();
  return useMutation({
    mutationFn: ({ body }: { body: CreateReportBody; userId: number }) =>
      reportConversation(client, body),
    onSuccess: (_answer, { body, userId }) => {
      if (body.block === true) onBlockedChange(userId, true);
    },
  });
};
