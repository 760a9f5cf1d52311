import { useTranslation } from 'react-i18next';

/** In a frame a 401 never navigates: the page says so (the host signs the visitor in again). */
export const SessionEndedNotice = () => {
  const { t } = useTranslation();
  return (
    <div className="page-status embed-notice" role="alert" data-testid="session-ended">
      <p>{t('embed.sessionEnded')}</p>
    </div>
  );
};
