import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { readPageBrand } from '../../lib/brand.js';

/**
 * The tab title: `(N) Messages · <SITE_NAME>` while N messages are unread, else
 * `Messages · <SITE_NAME>` ("Messages" translated). N is the server's `unread_total`: every
 * conversation of the viewer, archived ones too (a message waiting there is still unread), whatever
 * the job filter or the pages loaded; live messages and reads move it.
 */
export const useUnreadTitle = (unread: number): void => {
  const { t } = useTranslation();
  useEffect(() => {
    const title = t('app.pageTitle', { page: t('app.title'), site: readPageBrand().siteName });
    document.title = unread > 0 ? t('app.titleWithUnread', { count: unread, title }) : title;
  }, [t, unread]);
};
