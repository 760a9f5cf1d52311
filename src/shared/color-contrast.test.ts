import { describe, expect, it } from 'vitest';
import {
  contrastRatio,
  mix,
  nudgeForContrast,
  relativeLuminance,
  textColorOn,
} from './color-contrast.js';

describe('WCAG 2 contrast', () => {
  it('relative luminance: black 0, white 1, and the sRGB curve in between', () => {
    expect(relativeLuminance('#000000')).toBe(0);
    expect(relativeLuminance('#ffffff')).toBe(1);
    // WCAG's own figures: mid grey #777777 is 0.184, pure red 0.2126, pure green 0.7152
    expect(relativeLuminance('#777777')).toBeCloseTo(0.1845, 4);
    expect(relativeLuminance('#FF0000')).toBeCloseTo(0.2126, 4);
    expect(relativeLuminance('#00ff00')).toBeCloseTo(0.7152, 4);
  });

  it('contrast ratio: 21 for black on white, 1 for a colour on itself, the same either way', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBe(21);
    expect(contrastRatio('#2563eb', '#2563eb')).toBe(1);
    // known pairs: #767676 on white is the classic 4.54:1, the product's blue 5.17:1
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(contrastRatio('#ffffff', '#2563eb')).toBeCloseTo(5.17, 2);
    expect(contrastRatio('#2563eb', '#ffffff')).toBe(contrastRatio('#ffffff', '#2563eb'));
  });

  it('text on a colour is black or white, whichever contrasts more', () => {
    expect(textColorOn('#2563eb')).toBe('#ffffff');
    expect(textColorOn('#facc15')).toBe('#000000');
    expect(textColorOn('#ffffff')).toBe('#000000');
    expect(textColorOn('#000000')).toBe('#ffffff');
    // mid tones go either way by a hair: #777777 is 4.69:1 with black, 4.48:1 with white
    expect(textColorOn('#777777')).toBe('#000000');
    expect(textColorOn('#707070')).toBe('#ffffff');
    // whichever it picks is never below 4.5:1 (the worst colour still gets about 4.58:1)
    for (let value = 0; value < 256; value += 5) {
      const grey = `#${value.toString(16).padStart(2, '0').repeat(3)}`;
      for (const color of [grey, `#${value.toString(16).padStart(2, '0')}8040`]) {
        const chosen = textColorOn(color);
        const other = chosen === '#ffffff' ? '#000000' : '#ffffff';
        expect(contrastRatio(chosen, color)).toBeGreaterThanOrEqual(contrastRatio(other, color));
        expect(contrastRatio(chosen, color)).toBeGreaterThanOrEqual(4.5);
      }
    }
  });

  it('mixes as color-mix(in srgb) does, and nudges a colour just far enough for a contrast', () => {
    expect(mix('#000000', '#ffffff', 0.5)).toBe('#808080');
    expect(mix('#2563eb', '#ffffff', 1)).toBe('#2563eb');
    const nudged = nudgeForContrast('#facc15', '#000000', ['#ffffff'], 4.5);
    expect(contrastRatio(nudged, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    // one percent less would not do
    const lessDarkened = mix('#facc15', '#000000', 0.01 + relativeShare(nudged));
    expect(contrastRatio(lessDarkened, '#ffffff')).toBeLessThan(4.5);
    // already enough: unchanged
    expect(nudgeForContrast('#1d4ed8', '#000000', ['#ffffff'], 4.5)).toBe('#1d4ed8');
  });
});

/** How much of #facc15 is left in a mix of it with black (by its red channel). */
const relativeShare = (hex: string): number => Number.parseInt(hex.slice(1, 3), 16) / 0xfa;
