import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contrastRatio } from '../../shared/color-contrast.js';
import { DEFAULT_BRAND_COLOR } from '../config.js';
import { brandStylesheet, brandTokens, SCHEME_NEUTRALS, type Scheme } from './brand-theme.js';

/** The custom properties of src/web/styles/tokens.css: the light `:root`, then the dark one. */
const pageTokens = (): Record<Scheme, Record<string, string>> => {
  const css = readFileSync('src/web/styles/tokens.css', 'utf8');
  const [light = '', dark = ''] = css.split('@media (prefers-color-scheme: dark)');
  const read = (block: string) =>
    Object.fromEntries(
      [...block.matchAll(/(--color-[a-z-]+):\s*([^;]+);/g)].map(([, name = '', value = '']) => [
        name,
        value.trim(),
      ]),
    );
  const lightTokens = read(light);
  return { light: lightTokens, dark: { ...lightTokens, ...read(dark) } };
};

const SCHEMES: Scheme[] = ['light', 'dark'];

/** A spread of accents: greys from black to white, and hues light and dark. */
const SAMPLE_COLORS = [
  ...Array.from({ length: 18 }, (_, index) => {
    const value = Math.min(255, index * 15)
      .toString(16)
      .padStart(2, '0');
    return `#${value}${value}${value}`;
  }),
  '#2563eb',
  '#facc15',
  '#16a34a',
  '#e11d48',
  '#7c3aed',
  '#0ea5e9',
  '#f97316',
  '#14b8a6',
  '#ff00ff',
  '#00ff00',
  '#0000ff',
  '#ff0000',
  '#ffff00',
  '#00ffff',
  '#1e293b',
  '#fde68a',
];

describe('the brand’s tokens (BRAND_COLOR), every text pairing computed', () => {
  it('measures against the same neutrals as tokens.css, whose accent is the default brand’s', () => {
    const tokens = pageTokens();
    for (const scheme of SCHEMES) {
      const page = tokens[scheme];
      const neutrals = SCHEME_NEUTRALS[scheme];
      expect(page['--color-bg']).toBe(neutrals.bg);
      expect(page['--color-surface']).toBe(neutrals.surface);
      expect(page['--color-surface-muted']).toBe(neutrals.surfaceMuted);
      expect(page['--color-text']).toBe(neutrals.text);
      expect(page['--color-text-muted']).toBe(neutrals.textMuted);
      const brand = brandTokens(DEFAULT_BRAND_COLOR, scheme);
      expect(page['--color-primary']).toBe(brand.primary);
      expect(page['--color-on-primary']).toBe(brand.onPrimary);
      expect(page['--color-on-primary-muted']).toBe(brand.onPrimaryMuted);
      expect(page['--color-primary-hover']).toBe(brand.primaryHover);
      expect(page['--color-primary-soft']).toBe(brand.primarySoft);
      expect(page['--color-primary-strong']).toBe(brand.primaryStrong);
    }
  });

  it('keeps 4.5:1 for text on the accent and for the accent as text, whatever the colour', () => {
    for (const color of SAMPLE_COLORS) {
      for (const scheme of SCHEMES) {
        const tokens = brandTokens(color, scheme);
        const neutrals = SCHEME_NEUTRALS[scheme];
        const what = `${color} (${scheme})`;
        expect(tokens.primary, what).toBe(color);
        // black or white, whichever contrasts more
        const other = tokens.onPrimary === '#ffffff' ? '#000000' : '#ffffff';
        expect(contrastRatio(tokens.onPrimary, color), what).toBeGreaterThanOrEqual(
          contrastRatio(other, color),
        );
        expect(contrastRatio(tokens.onPrimary, color), what).toBeGreaterThanOrEqual(4.5);
        expect(contrastRatio(tokens.onPrimaryMuted, color), what).toBeGreaterThanOrEqual(4.5);
        expect(contrastRatio(tokens.onPrimary, tokens.primaryHover), what).toBeGreaterThanOrEqual(
          contrastRatio(tokens.onPrimary, color),
        );
        for (const surface of [
          neutrals.bg,
          neutrals.surface,
          neutrals.surfaceMuted,
          tokens.primarySoft,
        ])
          expect(
            contrastRatio(tokens.primaryStrong, surface),
            `${what} on ${surface}`,
          ).toBeGreaterThanOrEqual(4.5);
        expect(contrastRatio(neutrals.textMuted, tokens.primarySoft), what).toBeGreaterThanOrEqual(
          4.5,
        );
        expect(contrastRatio(neutrals.text, tokens.primarySoft), what).toBeGreaterThanOrEqual(4.5);
      }
    }
  });

  it('writes them as custom properties, the dark ones under prefers-color-scheme', () => {
    const css = brandStylesheet('#facc15');
    const [light = '', dark = ''] = css.split('@media (prefers-color-scheme: dark)');
    expect(light).toContain('--color-primary: #facc15;');
    expect(light).toContain('--color-on-primary: #000000;');
    expect(light).toContain(
      `--color-primary-strong: ${brandTokens('#facc15', 'light').primaryStrong};`,
    );
    expect(dark).toContain(`--color-primary-soft: ${brandTokens('#facc15', 'dark').primarySoft};`);
    // an embedded page forced light (`data-scheme="light"`) keeps the light ones, as tokens.css does
    for (const sheet of [css, readFileSync('src/web/styles/tokens.css', 'utf8')])
      expect(sheet.split('@media (prefers-color-scheme: dark)')[1]).toMatch(
        /^\s*\{\s*:root:not\(\[data-scheme='light'\]\) \{/,
      );
  });
});

describe('the page’s own tokens in both schemes (tokens.css)', () => {
  /** [foreground, background, least ratio]: text 4.5:1, controls' outlines and markers 3:1. */
  const PAIRS: [string, string, number][] = [
    ['--color-text', '--color-bg', 4.5],
    ['--color-text', '--color-surface', 4.5],
    ['--color-text', '--color-surface-muted', 4.5],
    ['--color-text', '--color-neutral-soft', 4.5],
    ['--color-text', '--color-mark', 4.5],
    ['--color-text-muted', '--color-bg', 4.5],
    ['--color-text-muted', '--color-surface', 4.5],
    ['--color-text-muted', '--color-surface-muted', 4.5],
    ['--color-text-muted', '--color-neutral-soft', 4.5],
    ['--color-danger', '--color-surface', 4.5],
    ['--color-danger', '--color-surface-muted', 4.5],
    ['--color-danger', '--color-danger-soft', 4.5],
    ['--color-on-danger', '--color-danger-fill', 4.5],
    ['--color-on-danger', '--color-danger-fill-hover', 4.5],
    ['--color-on-success-soft', '--color-success-soft', 4.5],
    ['--color-on-warning-soft', '--color-warning-soft', 4.5],
    // the toast is drawn in the text colour, its text in the surface's
    ['--color-surface', '--color-text', 4.5],
    ['--color-toast-action', '--color-text', 4.5],
    ['--color-focus', '--color-surface', 3],
    ['--color-focus', '--color-bg', 3],
    ['--color-focus', '--color-surface-muted', 3],
    ['--color-success', '--color-surface', 3],
  ];
  const DARK_ONLY: [string, string, number][] = [
    // the outline of inputs and secondary buttons
    ['--color-border-strong', '--color-surface', 3],
    ['--color-border-strong', '--color-surface-muted', 3],
  ];

  it.each(SCHEMES)('%s: text 4.5:1, controls and markers 3:1', (scheme) => {
    const tokens = pageTokens()[scheme];
    const pairs = scheme === 'dark' ? [...PAIRS, ...DARK_ONLY] : PAIRS;
    for (const [foreground, background, least] of pairs) {
      const ratio = contrastRatio(tokens[foreground] ?? '', tokens[background] ?? '');
      expect(ratio, `${foreground} on ${background}`).toBeGreaterThanOrEqual(least);
    }
  });
});
