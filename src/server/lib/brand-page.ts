import { paths } from '../../shared/paths.js';
import { escapeHtml } from './html.js';
import type { Brand } from './static-page.js';

/** The placeholders of the built pages (index.html, login.html) that the brand fills in. */
export const BRAND_PLACEHOLDERS = {
  siteName: '__SITE_NAME__',
  logoUrl: '__BRAND_LOGO_URL__',
} as const;

/**
 * A built page (index.html, login.html) under the site's brand: `SITE_NAME` in its `<title>` and
 * meta tag, `BRAND_LOGO_URL` in its meta tag (empty: the product's mark), and the brand's colours
 * (`/brand.css`, after the page's own stylesheets, so the accent is right from the first paint).
 */
export const brandPage = (page: string, brand: Brand): string =>
  page
    // replacer functions: a `$&` or `$'` in the name is text, not a replacement pattern
    .replaceAll(BRAND_PLACEHOLDERS.siteName, () => escapeHtml(brand.siteName))
    .replaceAll(BRAND_PLACEHOLDERS.logoUrl, () => escapeHtml(brand.logoUrl ?? ''))
    .replace('</head>', `<link rel="stylesheet" href="${paths.brandStylesheet}" />\n  </head>`);
