import { useTranslation } from 'react-i18next';
import { RetryButton } from '../../../components/retry-button.js';
import { refusalText } from '../utils/refusal-text.js';

/** The quiet notice of a send that failed: "Not sent", the server's reason if it said one, Retry. */
export const SendFailedNotice = ({
  refusal,
  onRetry,
}: {
  refusal: string | null;
  onRetry: () => unknown;
}) => {
  const { t } = useTranslation();
  return (
    <p className="send-failed" data-testid="send-failed" role="status">
      <span>{t('chat.notSent')}</span>
      {refusal ? (
        <>
          {' '}
          <span data-testid="send-refusal">{refusalText(refusal, t)}</span>
        </>
      ) : null}
      <RetryButton label={t('chat.retry')} onRetry={onRetry} variant="link" />
    </p>
  );
};
