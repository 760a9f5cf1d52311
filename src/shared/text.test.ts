import { describe, expect, it } from 'vitest';
import {
  containBidiControls,
  containsNul,
  hasBidiControl,
  hasVisibleText,
  isolateBidiControls,
} from './text.js';

const INVISIBLE = {
  'zero-width space': '\u200b',
  'zero-width non-joiner': '\u200c',
  'zero-width joiner': '\u200d',
  'word joiner': '\u2060',
  'byte order mark': '\ufeff',
  'left-to-right mark': '\u200e',
  'right-to-left mark': '\u200f',
  'left-to-right embedding': '\u202a',
  'right-to-left embedding': '\u202b',
  'pop directional formatting': '\u202c',
  'left-to-right override': '\u202d',
  'right-to-left override': '\u202e',
  'left-to-right isolate': '\u2066',
  'right-to-left isolate': '\u2067',
  'first strong isolate': '\u2068',
  'pop directional isolate': '\u2069',
  'arabic letter mark': '\u061c',
  'soft hyphen': '\u00ad',
  'invisible times': '\u2062',
  'mongolian vowel separator': '\u180e',
  'combining grapheme joiner': '\u034f',
  'variation selector 16': '\ufe0f',
  'hangul filler': '\u3164',
  'halfwidth hangul filler': '\uffa0',
  'braille blank': '\u2800',
  'tag space': '\u{e0020}',
  'no-break space': '\u00a0',
  'ideographic space': '\u3000',
  'line separator': '\u2028',
  'tab and newlines': '\t\r\n',
  'a control character': '\u0007',
} as const;

describe('hasVisibleText', () => {
  it.each(Object.entries(INVISIBLE))('finds nothing to show in %s', (_name, character) => {
    expect(hasVisibleText(character)).toBe(false);
    expect(hasVisibleText(character.repeat(5))).toBe(false);
  });

  it('finds nothing to show in an empty string or a mix of invisible characters', () => {
    expect(hasVisibleText('')).toBe(false);
    expect(hasVisibleText(Object.values(INVISIBLE).join(' '))).toBe(false);
  });

  it('keeps visible text, with or without invisible characters around it', () => {
    for (const text of [
      'a',
      'hello',
      '.',
      '0',
      'مرحبا',
      '\u200fمرحبا بك\u200f', // Arabic with its right-to-left marks
      '\u2067שלום\u2069',
      'a\u200bb',
      '👍',
      '❤\ufe0f', // an emoji with its variation selector
      '👩\u200d💻', // a zero-width-joiner sequence
      '中文',
      '\u0301', // a lone combining accent still draws (on a dotted circle)
      '\u06dd', // end of ayah: a format character that is drawn
      '\u0600', // Arabic number sign: idem
      '\ud800', // a lone surrogate is drawn as a replacement character
    ]) {
      expect(hasVisibleText(text), JSON.stringify(text)).toBe(true);
    }
  });
});

describe('containsNul', () => {
  it('finds U+0000 anywhere, and nothing else', () => {
    expect(containsNul('\u0000')).toBe(true);
    expect(containsNul('a\u0000b')).toBe(true);
    expect(containsNul('abc')).toBe(false);
    expect(containsNul('\\u0000')).toBe(false);
    expect(containsNul('\u0001')).toBe(false);
  });
});

describe('bidi controls in message text', () => {
  it('turns overrides and embeddings into isolates, and keeps everything else', () => {
    expect(isolateBidiControls('x \u202eevil')).toBe('x \u2067evil');
    expect(isolateBidiControls('a\u202dB\u202cc')).toBe('a\u2066B\u2069c');
    expect(isolateBidiControls('\u202aA\u202bB')).toBe('\u2066A\u2067B');
    expect(isolateBidiControls('\u2068مرحبا\u2069 ok')).toBe('\u2068مرحبا\u2069 ok');
    expect(isolateBidiControls('plain \u200f text')).toBe('plain \u200f text');
  });

  it('tells text with controls from text without', () => {
    expect(hasBidiControl('x \u202eevil')).toBe(true);
    expect(hasBidiControl('\u2066x')).toBe(true);
    expect(hasBidiControl('مرحبا \u200f hello')).toBe(false);
  });

  it('in plain text, also closes on each line what it opened and drops closings it did not open', () => {
    expect(containBidiControls('x \u202eevil')).toBe('x \u2067evil\u2069');
    expect(containBidiControls('a\u202dB\u202cc')).toBe('a\u2066B\u2069c');
    expect(containBidiControls('\u202c\u2069x\u202e')).toBe('x\u2067\u2069');
    expect(containBidiControls('\u202eone\ntwo\u202c\r\n\u2068three')).toBe(
      '\u2067one\u2069\ntwo\r\n\u2068three\u2069',
    );
    expect(containBidiControls('\u2068مرحبا\u2069 ok')).toBe('\u2068مرحبا\u2069 ok');
    expect(containBidiControls('plain \u200f text')).toBe('plain \u200f text');
    expect(containBidiControls('\u202a\u202b\u202c\u202d\u202ex')).not.toMatch(/[\u202a-\u202e]/);
  });
});
