import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../../components/error-alert.js';
import { useUnblockUser } from '../api/unblock-user.js';
import type { BlockedChange } from '../utils/blocked-change.js';

/**
 * In place of the composer when the viewer blocked the other party: what that means, and Unblock
 * (the composer comes back once unblocked, said in the page's live region). A failed unblock is
 * said here.
 */
export const BlockedNotice = ({
  userId,
  name,
  onBlockedChange,
  announce,
}: {
  userId: number;
  name: string;
  onBlockedChange: BlockedChange;
  announce: (message: string) => void;
}) => {
  const { t } = useTranslation();
  const unblock = useUnblockUser(onBlockedChange);
  const onUnblock = () =>
    unblock.mutate(userId, {
      onSuccess: () => announce(t('safety.unblockedAnnounce', { name })),
    });
  const busy = unblock.isPending;
  const failed = unblock.isError;
  return (
    <div className="safety-notice" data-testid="blocked-notice" role="note">
      <p className="safety-notice__text">{t('safety.blockedNotice')}</p>
      <button
        type="button"
        className="button button--secondary"
        disabled={busy}
        onClick={onUnblock}
      >
        {t('safety.unblock')}
      </button>
      <ErrorAlert
        className="safety-notice__error"
        message={failed ? t('safety.unblockFailed') : null}
      />
    </div>
  );
};

/** In place of the composer when the host suspended the viewer's account: reading still works. */
export const SuspendedNotice = () => {
  const { t } = useTranslation();
  return (
    <div className="safety-notice" data-testid="suspended-notice" role="note">
      <p className="safety-notice__text">{t('safety.suspendedNotice')}</p>
    </div>
  );
};
