import { useTranslation } from 'react-i18next';
import { ATTACHMENT_MAX_BYTES } from '../../../lib/contract.js';
import {
  isRetryable,
  type PendingUpload,
  type UploadFailure,
} from '../hooks/use-attachment-uploads.js';
import { formatFileSize, kindLabel } from '../utils/file-kind.js';
import { refusalText } from '../utils/refusal-text.js';
import { LineIcon } from '../../../components/line-icon.js';

interface AttachmentChipsProps {
  items: readonly PendingUpload[];
  onRemove: (key: string) => void;
  onRetry: (key: string) => void;
}

/** The files of the message being written, above the message box: one chip each. */
export const AttachmentChips = ({ items, onRemove, onRetry }: AttachmentChipsProps) => {
  const { t } = useTranslation();
  if (items.length === 0) return null;
  return (
    <ul
      className="attachment-chips"
      aria-label={t('chat.files.listLabel')}
      data-testid="attachment-chips"
    >
      {items.map((item) => (
        <AttachmentChip key={item.key} item={item} onRemove={onRemove} onRetry={onRetry} />
      ))}
    </ul>
  );
};

const useFailureText = () => {
  const { t, i18n } = useTranslation();
  return (failure: UploadFailure): string => {
    switch (failure.reason) {
      case 'tooLarge':
        return t('chat.files.tooLarge', {
          max: formatFileSize(ATTACHMENT_MAX_BYTES, i18n.language),
        });
      case 'kind':
        return t('chat.files.kindRefused', { kind: failure.kind });
      case 'refused':
        return t('chat.files.refused', { reason: failure.message });
      case 'forbidden':
        return refusalText(failure.message, t);
      case 'rateLimited':
        return t('chat.files.rateLimited');
      case 'failed':
        return t('chat.files.failed');
    }
  };
};

/**
 * Name, kind and size; while uploading a progress bar, then "Ready"; a refused file says why (an
 * alert, so a screen reader hears it without looking for it) and stays until removed. Remove is
 * always there: it also stops an upload in flight.
 */
const AttachmentChip = ({
  item,
  onRemove,
  onRetry,
}: {
  item: PendingUpload;
  onRemove: (key: string) => void;
  onRetry: (key: string) => void;
}) => {
  const { t, i18n } = useTranslation();
  const failureText = useFailureText();
  const kind = kindLabel(item.mime, item.name) ?? t('chat.files.kindUnknown');
  return (
    <li
      className={`attachment-chip attachment-chip--${item.status}`}
      data-testid="attachment-chip"
      data-status={item.status}
    >
      <div className="attachment-chip__main">
        <span className="attachment-chip__text">
          <span className="attachment-chip__name" dir="auto">
            {item.name}
          </span>
          <span className="attachment-chip__meta">
            {kind} · {formatFileSize(item.size, i18n.language)}
            {item.status === 'done' ? <> · {t('chat.files.ready')}</> : null}
          </span>
        </span>
        <button
          type="button"
          className="icon-button attachment-chip__remove"
          title={t('chat.files.remove', { name: item.name })}
          onClick={() => onRemove(item.key)}
        >
          <LineIcon path="M6 6l12 12M18 6L6 18" size={18} />
          <span className="visually-hidden">{t('chat.files.remove', { name: item.name })}</span>
        </button>
      </div>
      {item.status === 'uploading' ? (
        <progress
          className="attachment-chip__progress"
          max={100}
          value={item.progress}
          aria-label={t('chat.files.uploading', { name: item.name })}
        />
      ) : null}
      {item.failure ? (
        <div className="attachment-chip__failure">
          <p className="attachment-chip__error" role="alert" dir="auto">
            {failureText(item.failure)}
          </p>
          {isRetryable(item) ? (
            <button
              type="button"
              className="button button--link attachment-chip__retry"
              aria-label={t('chat.files.retryNamed', { name: item.name })}
              onClick={() => onRetry(item.key)}
            >
              {t('chat.files.retry')}
            </button>
          ) : null}
        </div>
      ) : null}
    </li>
  );
};
