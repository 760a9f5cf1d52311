import { useTranslation } from 'react-i18next';
import { Spinner } from '../components/spinner.js';

/**
 * In place of the chat while there is nothing to show: a spinner, or once it failed an alert — the
 * list failed to load (with Retry), or the embedded conversation could not be opened.
 */
export const PageStatus = ({
  failed,
  listFailed,
  onRetry,
}: {
  failed: boolean;
  /** The conversation list failed to load (else the embedded conversation could not be opened). */
  listFailed: boolean;
  onRetry: () => void;
}) => {
  const { t } = useTranslation();
  return failed ? (
    <div className="page-status" role="alert">
      <p>{t(listFailed ? 'app.loadFailed' : 'embed.conversationFailed')}</p>
      {listFailed ? (
        <button type="button" className="button button--primary" onClick={onRetry}>
          {t('app.retry')}
        </button>
      ) : null}
    </div>
  ) : (
    <div className="page-status">
      <Spinner label={t('app.loading')} />
    </div>
  );
};
