/**
 * Colour arithmetic of WCAG 2: relative luminance, contrast ratio, and the choice of black or white
 * text on a colour. Colours are `#rrggbb`.
 */

export type Rgb = readonly [number, number, number];

/** WCAG 2's least contrast for normal text (AA). */
export const TEXT_CONTRAST = 4.5;

export const BLACK = '#000000';
export const WHITE = '#ffffff';

export const parseHex = (hex: string): Rgb => {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) throw new Error(`not a #rrggbb colour: ${hex}`);
  return [
    Number.parseInt(match[1] ?? '', 16),
    Number.parseInt(match[2] ?? '', 16),
    Number.parseInt(match[3] ?? '', 16),
  ];
};

export const toHex = ([red, green, blue]: Rgb): string =>
  `#${[red, green, blue]
    .map((channel) =>
      Math.round(Math.min(255, Math.max(0, channel)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;

/** A channel (0–255) in linear light, as WCAG 2 defines it. */
const linear = (channel: number): number => {
  const value = channel / 255;
  return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
};

/** WCAG 2 relative luminance: 0 (black) to 1 (white). */
export const relativeLuminance = (hex: string): number => {
  const [red, green, blue] = parseHex(hex);
  return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue);
};

/** WCAG 2 contrast ratio of two colours, 1 to 21 (order does not matter). */
export const contrastRatio = (first: string, second: string): number => {
  const a = relativeLuminance(first);
  const b = relativeLuminance(second);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
};

/** Black or white, whichever contrasts more with `background` (white when they tie). */
export const textColorOn = (background: string): typeof BLACK | typeof WHITE =>
  contrastRatio(BLACK, background) > contrastRatio(WHITE, background) ? BLACK : WHITE;

/** `share` (0–1) of `first` mixed with the rest of `second`, in sRGB (as CSS `color-mix(in srgb)`). */
export const mix = (first: string, second: string, share: number): string => {
  const a = parseHex(first);
  const b = parseHex(second);
  return toHex([0, 1, 2].map((i) => (a[i] ?? 0) * share + (b[i] ?? 0) * (1 - share)) as never);
};

/**
 * `color` moved towards `target` (black or white) by the least whole percent, at least `minShare`,
 * for which it contrasts at least `ratio` with every one of `against`; `target` itself if none does.
 */
export const nudgeForContrast = (
  color: string,
  target: string,
  against: readonly string[],
  ratio: number,
  minShare = 0,
): string => {
  for (let percent = Math.round(minShare * 100); percent <= 100; percent += 1) {
    const candidate = mix(target, color, percent / 100);
    if (against.every((other) => contrastRatio(candidate, other) >= ratio)) return candidate;
  }
  return target;
};
