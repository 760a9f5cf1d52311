import { brandTokens, type BrandTokens } from '../../shared/brand-tokens.js';

export {
  brandTokens,
  SCHEME_NEUTRALS,
  type BrandTokens,
  type Scheme,
} from '../../shared/brand-tokens.js';

const declarations = (tokens: BrandTokens): string =>
  [
    `--color-primary: ${tokens.primary};`,
    `--color-on-primary: ${tokens.onPrimary};`,
    `--color-on-primary-muted: ${tokens.onPrimaryMuted};`,
    `--color-primary-hover: ${tokens.primaryHover};`,
    `--color-primary-soft: ${tokens.primarySoft};`,
    `--color-primary-strong: ${tokens.primaryStrong};`,
  ]
    .map((line) => `  ${line}`)
    .join('\n');

/**
 * The brand's style sheet: the accent tokens for the light scheme, and for the dark one under
 * `prefers-color-scheme: dark` (it follows the page's `tokens.css`, which it overrides; an embedded
 * page forced light (`data-scheme="light"` on <html>) keeps the light ones).
 */
export const brandStylesheet = (color: string): string => `/* BRAND_COLOR ${color} */
:root {
${declarations(brandTokens(color, 'light'))}
}

@media (prefers-color-scheme: dark) {
  :root:not([data-scheme='light']) {
${declarations(brandTokens(color, 'dark'))
  .split('\n')
  .map((line) => `  ${line}`)
  .join('\n')}
  }
}
`;
