import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locale } from '../../shared/integration.js';
import { paths } from '../../shared/paths.js';
import type { Config } from '../config.js';
import { escapeHtml } from './html.js';

/** The site's brand: `SITE_NAME`, `BRAND_LOGO_URL`, `BRAND_COLOR`. */
export type Brand = Config['brand'];

/** `<page> · <SITE_NAME>`: the title of every page the server renders. */
export const brandedTitle = (page: string, brand: Pick<Brand, 'siteName'>): string =>
  `${page} · ${brand.siteName}`;

export interface StaticPageOptions {
  /** The built client's stylesheets (those of the sign-in page), so the page looks like it. */
  stylesheets?: readonly string[];
}

/**
 * The opening of a static page the server writes itself (no script, no inline style, so the CSP
 * holds): the document in the reader's language and direction, titled `<title> · <SITE_NAME>`, in
 * the system's colour scheme with the brand's colours (`/brand.css`), up to and including `<head>`'s end.
 */
export const staticPageStart = (
  locale: Locale,
  title: string,
  brand: Brand,
  options: StaticPageOptions = {},
): string => {
  const links = [...(options.stylesheets ?? []), paths.brandStylesheet]
    .map((href) => `\n<link rel="stylesheet" href="${escapeHtml(href)}">`)
    .join('');
  return `<!doctype html>
<html lang="${locale}" dir="${locale === 'ar' ? 'rtl' : 'ltr'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(brandedTitle(title, brand))}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">${links}
</head>`;
};

/**
 * The site's logo and name as the sign-in card shows them: `BRAND_LOGO_URL` (its alternative text
 * the site's name), else the product's mark (decoration), then `SITE_NAME`.
 */
export const brandHeader = (brand: Brand): string => {
  const mark = brand.logoUrl
    ? `<img class="topbar__logo-image" src="${escapeHtml(brand.logoUrl)}" alt="${escapeHtml(brand.siteName)}">`
    : '<span class="topbar__logo" aria-hidden="true"></span>';
  return `<div class="login-card__brand">${mark}<span class="login-card__product">${escapeHtml(brand.siteName)}</span></div>`;
};

/** The words of a page that only says something: its title, its heading and a sentence. */
export interface NoticeText {
  title: string;
  heading: string;
  body: string;
}

/**
 * A page that only says something (a refused link, a page that may not be embedded), under the
 * site's brand and styled like the sign-in page (its stylesheets, the same card): static text, no
 * script, no inline style (the CSP holds).
 */
export const noticePage = (
  locale: Locale,
  text: NoticeText,
  brand: Brand,
  stylesheets: readonly string[] = [],
): string => `${staticPageStart(locale, text.title, brand, { stylesheets })}
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

const stylesheetsFound = new Map<string, string[]>();

/**
 * The stylesheets of the built sign-in page (`login.html` in `webRoot`), so that the server's own
 * pages look like it; none while the client is not built. Read once they are found.
 */
export const signInStylesheets = (webRoot: string | undefined): string[] => {
  if (!webRoot) return [];
  const known = stylesheetsFound.get(webRoot);
  if (known) return known;
  const file = join(webRoot, 'login.html');
  if (!existsSync(file)) return [];
  const found = [...readFileSync(file, 'utf8').matchAll(/<link\b[^>]*>/g)]
    .map(([tag]) => tag)
    .filter((tag) => /\brel="stylesheet"/.test(tag))
    .flatMap((tag) => /\bhref="([^"]+)"/.exec(tag)?.[1] ?? [])
    .filter((href) => href !== paths.brandStylesheet);
  stylesheetsFound.set(webRoot, found);
  return found;
};
