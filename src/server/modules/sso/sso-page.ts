import type { Locale } from '../../../shared/integration.js';
import { staticPageStart } from '../../lib/static-page.js';

const TEXTS: Record<Locale, { title: string; heading: string; body: string }> = {
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

/** The page a refused sign-in link shows: static text, no script, no inline style (the CSP holds). */
export const ssoRefusedPage = (locale: Locale): string => {
  const text = TEXTS[locale];
  return `${staticPageStart(locale, text.title)}
<body>
<main>
<h1>${text.heading}</h1>
<p>${text.body}</p>
</main>
</body>
</html>
`;
};
