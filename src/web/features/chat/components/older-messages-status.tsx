import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/spinner.js';

/**
 * Above the first loaded message: a spinner while older ones load, the button to load them, or a
 * note that this is the beginning (or that there are no messages at all).
 */
export const OlderMessagesStatus = ({
  loadingOlder,
  hasOlder,
  empty,
  onLoadOlder,
}: {
  loadingOlder: boolean;
  hasOlder: boolean;
  /** Nothing is shown yet, sent or pending. */
  empty: boolean;
  onLoadOlder: () => void;
}) => {
  const { t } = useTranslation();
  return (
    <div className="message-list__older">
      {loadingOlder ? (
        <Spinner size="sm" label={t('chat.loadingOlder')} />
      ) : hasOlder ? (
        <button type="button" className="button button--ghost button--small" onClick={onLoadOlder}>
          {t('chat.loadOlder')}
        </button>
      ) : empty ? (
        <p className="note">{t('chat.noMessages')}</p>
      ) : (
        <p className="note">{t('chat.beginning')}</p>
      )}
    </div>
  );
};
