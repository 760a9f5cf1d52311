import { hasBidiControl, isolateBidiControls } from './bidi.js';

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
});
