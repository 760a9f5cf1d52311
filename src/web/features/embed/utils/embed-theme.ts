import { brandTokens, type BrandTokens, type Scheme } from '../../../../shared/brand-tokens.js';
import type { EmbedTheme } from './frame-params.js';

const DARK_QUERY = '(prefers-color-scheme: dark)';

const TOKEN_PROPERTIES: Record<keyof BrandTokens, string> = {
  primary: '--color-primary',
  onPrimary: '--color-on-primary',
  onPrimaryMuted: '--color-on-primary-muted',
  primaryHover: '--color-primary-hover',
  primarySoft: '--color-primary-soft',
  primaryStrong: '--color-primary-strong',
};

/**
 * A forced dark scheme: the page's own dark rules (tokens.css and /brand.css, each under
 * `@media (prefers-color-scheme: dark)`) apply whatever the system's, copied out of their media
 * block under `:root[data-scheme='dark']` (the token lists are written once, in those files).
 * Through the CSSOM: the page's CSP allows no inline `<style>`.
 */
const applyDarkRules = (doc: Document): void => {
  for (const sheet of Array.from(doc.styleSheets)) {
    let rules: CSSRuleList;
    try {
      rules = sheet.cssRules;
    } catch {
      continue; // another origin's sheet
    }
    const copies: string[] = [];
    for (const rule of Array.from(rules)) {
      if (!(rule instanceof CSSMediaRule) || !rule.conditionText.includes('prefers-color-scheme'))
        continue;
      if (!/dark/.test(rule.conditionText)) continue;
      for (const inner of Array.from(rule.cssRules))
        if (inner instanceof CSSStyleRule && inner.selectorText.startsWith(':root'))
          copies.push(`:root[data-scheme='dark'] { ${inner.style.cssText} }`);
    }
    for (const copy of copies) sheet.insertRule(copy, sheet.cssRules.length);
  }
};

/**
 * The embedded page's theme, set on <html> before the first render: `scheme` as `data-scheme`
 * (tokens.css), `color` as the accent tokens of the scheme shown (text on it black or white by
 * contrast, the same computation as the server's /brand.css), `radius` and `font` as the radius
 * and font tokens. Returns the function that stops following the system's scheme.
 */
export const applyEmbedTheme = (
  theme: EmbedTheme,
  doc: Document = document,
  matchMedia: (query: string) => MediaQueryList = window.matchMedia.bind(window),
): (() => void) => {
  const root = doc.documentElement;
  if (theme.scheme && theme.scheme !== 'auto') {
    root.dataset.scheme = theme.scheme;
    if (theme.scheme === 'dark') applyDarkRules(doc);
  }
  if (theme.radius) {
    root.style.setProperty('--radius-sm', theme.radius);
    root.style.setProperty('--radius-md', theme.radius);
    root.style.setProperty('--radius-lg', theme.radius);
  }
  if (theme.fontFamily) root.style.setProperty('--font-sans', theme.fontFamily);

  const { color } = theme;
  if (!color) return () => undefined;
  const setTokens = (scheme: Scheme) => {
    const tokens = brandTokens(color, scheme);
    for (const [name, property] of Object.entries(TOKEN_PROPERTIES))
      root.style.setProperty(property, tokens[name as keyof BrandTokens]);
  };
  if (theme.scheme === 'light' || theme.scheme === 'dark') {
    setTokens(theme.scheme);
    return () => undefined;
  }
  const dark = matchMedia(DARK_QUERY);
  const follow = () => setTokens(dark.matches ? 'dark' : 'light');
  follow();
  dark.addEventListener('change', follow);
  return () => dark.removeEventListener('change', follow);
};
