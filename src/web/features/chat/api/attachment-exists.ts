import { useCallback } from 'react';
import type { ApiClient } from '../../../lib/api-client.js';
import { useApiClient } from '../../../lib/api-provider.js';
import { apiPaths } from '../../../lib/contract.js';

/**
 * `HEAD /user/attachments/{id}`: whether an upload of the viewer's draft is still kept by the server
 * (unsent uploads are deleted after 24 hours; then 404).
 */
export const attachmentExists = (client: ApiClient, id: number): Promise<boolean> =>
  client.exists(apiPaths.attachment(id));

export const useAttachmentExists = () => {
  const client = useApiClient();
  return useCallback((id: number) => attachmentExists(client, id), [client]);
};
