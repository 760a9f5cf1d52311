import { useCallback } from 'react';
import type {
  UploadAttachmentResponse,
  UploadedAttachment,
} from '../../../../shared/attachment-uploads.js';
import type { ApiClient, UploadOptions } from '../../../lib/api-client.js';
import { useApiClient } from '../../../lib/api-provider.js';
import { apiPaths } from '../../../lib/contract.js';

/**
 * `POST /user/attachments`: one file per call (multipart, field `file`), through XMLHttpRequest so
 * the page can show its progress. 413 too large, 422 a refused kind (named), 429 too many at once.
 */
export const uploadAttachment = async (
  client: ApiClient,
  file: File,
  options?: UploadOptions,
): Promise<UploadedAttachment> =>
  (await client.upload<UploadAttachmentResponse>(apiPaths.attachments, 'file', file, options))
    .attachment;

export const useUploadAttachment = () => {
  const client = useApiClient();
  return useCallback(
    (file: File, options?: UploadOptions) => uploadAttachment(client, file, options),
    [client],
  );
};
