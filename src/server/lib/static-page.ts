import type { Locale } from '../../shared/integration.js';
import { escapeHtml } from './html.js';

/**
 * The opening of a static page the server writes itself (no script, no inline style, so the CSP
 * holds): the document in the reader's language and direction, up to and including `<head>`'s end.
 */
export const staticPageStart = (
  locale: Locale,
  title: string,
  stylesheets: readonly string[] = [],
): string => {
  const links = stylesheets
    .map((href) => `\n<link rel="stylesheet" href="${escapeHtml(href)}">`)
    .join('');
  return `<!doctype html>
<html lang="${locale}" dir="${locale === 'ar' ? 'rtl' : 'ltr'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="color-scheme" content="light">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">${links}
</head>`;
};
