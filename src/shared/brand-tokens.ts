import {
  BLACK,
  contrastRatio,
  mix,
  nudgeForContrast,
  TEXT_CONTRAST,
  textColorOn,
  WHITE,
} from './color-contrast.js';

/**
 * The neutral colours of each scheme that the brand's tokens are measured against: the same values
 * as `src/web/styles/tokens.css` (a unit test keeps them equal). Shared: the server's `/brand.css`
 * (src/server/lib/brand-theme.ts) and the embedded page's `color` parameter compute the same tokens.
 */
export const SCHEME_NEUTRALS = {
  light: {
    bg: '#f3f5f9',
    surface: '#ffffff',
    surfaceMuted: '#f8fafc',
    text: '#0f172a',
    textMuted: '#556274',
  },
  dark: {
    bg: '#0b1120',
    surface: '#151e2e',
    surfaceMuted: '#1b2537',
    text: '#e6eaf0',
    textMuted: '#a3afc0',
  },
} as const;

export type Scheme = keyof typeof SCHEME_NEUTRALS;

/** The accent tokens of one scheme (the page's `--color-primary…` custom properties). */
export interface BrandTokens {
  /** `BRAND_COLOR` itself: filled buttons, own bubbles, badges, the selected row's edge. */
  primary: string;
  /** Text and icons on `primary`: black or white, whichever contrasts more. */
  onPrimary: string;
  /** Secondary text on `primary` (own bubbles' time): `onPrimary` softened while it keeps 4.5:1. */
  onPrimaryMuted: string;
  /** `primary` under the pointer: moved away from `onPrimary`, so its text contrasts more still. */
  primaryHover: string;
  /** A wash of the accent (the selected row, chips) on which the scheme's muted text keeps 4.5:1. */
  primarySoft: string;
  /** The accent as text on the scheme's surfaces and on `primarySoft` (links, ghost buttons): 4.5:1. */
  primaryStrong: string;
}

/** Secondary text on `primary` keeps this much more than 4.5:1, so rounding never drops below it. */
const MARGIN = 0.1;

const softWash = (color: string, scheme: Scheme): string => {
  const neutrals = SCHEME_NEUTRALS[scheme];
  // the most accent (light 10 %, dark 22 %) on which muted and normal text stay readable
  for (let percent = scheme === 'light' ? 10 : 22; percent > 0; percent -= 1) {
    const wash = mix(color, neutrals.surface, percent / 100);
    if (
      contrastRatio(neutrals.textMuted, wash) >= TEXT_CONTRAST + MARGIN &&
      contrastRatio(neutrals.text, wash) >= TEXT_CONTRAST + MARGIN
    )
      return wash;
  }
  return neutrals.surface;
};

/**
 * The accent tokens for `color` in `scheme`, every text pairing computed (WCAG 2 contrast), never
 * assumed: whatever `BRAND_COLOR` is, text on it and the accent as text keep at least 4.5:1.
 */
export const brandTokens = (color: string, scheme: Scheme): BrandTokens => {
  const neutrals = SCHEME_NEUTRALS[scheme];
  const onPrimary = textColorOn(color);
  const onPrimaryMuted = nudgeForContrast(
    mix(color, onPrimary, 0.12),
    onPrimary,
    [color],
    TEXT_CONTRAST + MARGIN,
  );
  const away = onPrimary === WHITE ? BLACK : WHITE;
  const primaryHover = mix(away, color, 0.15);
  const primarySoft = softWash(color, scheme);
  const primaryStrong = nudgeForContrast(
    color,
    scheme === 'light' ? BLACK : WHITE,
    [neutrals.bg, neutrals.surface, neutrals.surfaceMuted, primarySoft],
    TEXT_CONTRAST + MARGIN,
    scheme === 'light' ? 0.15 : 0,
  );
  return { primary: color, onPrimary, onPrimaryMuted, primaryHover, primarySoft, primaryStrong };
};
