import type { Locale } from '../../../shared/integration.js';
import { noticePage, type Brand, type NoticeText } from '../../lib/static-page.js';

const TEXTS: Record<Locale, NoticeText> = {
  en: {
    title: 'Sign-in link invalid or expired',
    heading: 'This sign-in link is invalid or has expired.',
    body: 'Go back to the site that sent you here and open Messages from there again.',
  },
  ar: {
    title: 'رابط تسجيل الدخول غير صالح أو منتهي الصلاحية',
    heading: 'رابط تسجيل الدخول هذا غير صالح أو انتهت صلاحيته.',
    body: 'عد إلى الموقع الذي أرسلك إلى هنا وافتح الرسائل منه مرة أخرى.',
  },
};

/** The page a refused sign-in link shows, in the reader's language. */
export const ssoRefusedPage = (
  locale: Locale,
  brand: Brand,
  stylesheets: readonly string[] = [],
): string => noticePage(locale, TEXTS[locale], brand, stylesheets);
