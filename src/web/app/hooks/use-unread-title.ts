import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The tab title: `(N) Messages` while N messages are unread, else `Messages` (translated). N is the
 * server's `unread_total`: every conversation of the viewer, archived ones too (a message waiting
 * there is still unread), whatever the job filter or the pages loaded; live messages and reads move it.
 */
export const useUnreadTitle = (unread: number): void => {
  const { t } = useTranslation();
  useEffect(() => {
    document.title =
      unread > 0
        ? t('app.titleWithUnread', { count: unread, title: t('app.title') })
        : t('app.title');
  }, [t, unread]);
};
