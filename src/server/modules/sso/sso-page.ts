import type { Locale } from '../../../shared/integration.js';
import { escapeHtml } from '../../lib/html.js';
import { brandHeader, staticPageStart, type Brand } from '../../lib/static-page.js';

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

/**
 * The page a refused sign-in link shows, under the site's brand and styled like the sign-in page
 * (its stylesheets, the same card): static text, no script, no inline style (the CSP holds).
 */
export const ssoRefusedPage = (
  locale: Locale,
  brand: Brand,
  stylesheets: readonly string[] = [],
): string => {
  const text = TEXTS[locale];
  return `${staticPageStart(locale, text.title, brand, { stylesheets })}
<body>
<div class="login-page">
<main class="login-card">
${brandHeader(brand)}
<h1 class="login-card__title">${escapeHtml(text.heading)}</h1>
<p class="login-card__subtitle">${escapeHtml(text.body)}</p>
</main>
</div>
</body>
</html>
`;
};
