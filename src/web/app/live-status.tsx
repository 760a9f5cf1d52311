import { useTranslation } from 'react-i18next';

/** A status region that says the page is offline while the live connection is gone. */
export const LiveStatus = ({ liveDown }: { liveDown: boolean }) => {
  const { t } = useTranslation();
  return (
    <div className="live-status" role="status" data-testid="live-status">
      {liveDown ? <p className="live-status__message">{t('pageNotices.offline')}</p> : null}
    </div>
  );
};
