import { useTranslation } from 'react-i18next';
import { ATTACHMENTS_PER_MESSAGE } from '../../../lib/contract.js';
import type { AttachmentUploads } from '../hooks/use-attachment-uploads.js';

/** An alert when files were refused for the per-message limit, or the message holds too many. */
export const AttachmentLimitNotice = ({ uploads }: { uploads: AttachmentUploads }) => {
  const { t } = useTranslation();
  if (uploads.refusedOverLimit === 0 && !uploads.overLimit) return null;
  return (
    <p className="chat-footer__file-limit" data-testid="attachment-limit" role="alert">
      {uploads.refusedOverLimit > 0
        ? t('chat.files.limit', { count: uploads.refusedOverLimit, max: ATTACHMENTS_PER_MESSAGE })
        : t('chat.files.overLimit', { max: ATTACHMENTS_PER_MESSAGE })}
    </p>
  );
};
