/** The bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069). */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;

/** Each embedding or override becomes the isolate of its direction; PDF becomes PDI. */
const AS_ISOLATE: Record<string, string> = {
  '\u202A': '\u2066', // LRE → LRI
  '\u202B': '\u2067', // RLE → RLI
  '\u202C': '\u2069', // PDF → PDI
  '\u202D': '\u2066', // LRO → LRI
  '\u202E': '\u2067', // RLO → RLI
};

/** True when the text holds a bidirectional embedding, override or isolate. */
export const hasBidiControl = (text: string): boolean => BIDI_CONTROL.test(text);

/**
 * Text to draw with its bidi controls made harmless: overrides (which draw "evil" as "live") and
 * embeddings become isolates of the same direction, so letters keep their own direction and a run
 * never reorders the text around it. Shown inside a `<bdi>`, whose end closes whatever is left open.
 */
export const isolateBidiControls = (text: string): string =>
  text.replace(/[\u202A-\u202E]/g, (char) => AS_ISOLATE[char] ?? char);
