/**
 * What counts as text in a message, shared by the server's schemas and the page's composer (zod-free,
 * so the client's first bundle can import it).
 */

/**
 * Characters that show nothing on their own:
 * - white space (`\p{White_Space}`) and control characters (`\p{Cc}`);
 * - format characters (`\p{Cf}`): zero-width space/joiners (U+200B–U+200D), word joiner (U+2060),
 *   byte order mark (U+FEFF), soft hyphen (U+00AD), the bidi marks and controls (U+200E, U+200F,
 *   U+202A–U+202E, U+2066–U+2069, U+061C), tag characters (U+E0001, U+E0020–U+E007F), …;
 * - default-ignorable code points (`\p{Default_Ignorable_Code_Point}`): variation selectors,
 *   combining grapheme joiner, Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), …;
 * - the blank Braille pattern (U+2800), a well-known "empty message" trick.
 */
const INVISIBLE = '\\p{White_Space}\\p{Cc}\\p{Cf}\\p{Default_Ignorable_Code_Point}\\u2800';

/**
 * Format characters that are drawn nonetheless (Unicode's Prepended_Concatenation_Mark: the Arabic
 * number signs, the end-of-ayah ornament, …): they count as visible.
 */
const DRAWN_FORMAT = '\\u0600-\\u0605\\u06DD\\u070F\\u0890\\u0891\\u08E2\\u{110BD}\\u{110CD}';

const VISIBLE_PATTERN = new RegExp(`[^${INVISIBLE}]|[${DRAWN_FORMAT}]`, 'u');

/**
 * True when the text holds at least one character that shows. A message made only of spaces,
 * zero-width characters or bidi marks is empty; visible text with such characters around it (Arabic
 * with its bidi marks, an emoji with its variation selector) is kept as it is.
 */
export const hasVisibleText = (text: string): boolean => VISIBLE_PATTERN.test(text);

/**
 * Control characters (`\p{Cc}`: tabs, line feeds, carriage returns, NEL, …), the line and paragraph
 * separators (U+2028, U+2029) and the bidirectional embeddings, overrides and isolates (U+202A–U+202E,
 * U+2066–U+2069): what may never stand in a name, where it could break a line in a list or e-mail
 * or reverse the text drawn after it.
 */
const NAME_FORBIDDEN_PATTERN = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;

/** True when the text holds a control character, a line break or a bidirectional override. */
export const containsControlOrBidi = (text: string): boolean => NAME_FORBIDDEN_PATTERN.test(text);

/** True when the text holds a NUL character (U+0000), which PostgreSQL cannot store in text. */
export const containsNul = (text: string): boolean => text.includes('\u0000');

/** The name an erased user has; the page shows it in the viewer's language. */
export const DELETED_USER_NAME = 'Deleted user';

/**
 * Whether `name` is an IANA time zone name this runtime knows (`Asia/Riyadh`, `UTC`): letters,
 * digits and `/ _ + -` only (so no UTC offsets like `+03:00`), at most 64 characters.
 */
export const isTimeZoneName = (name: string): boolean => {
  if (name.length > 64 || !/^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/.test(name))
    return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
};

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

/** Paragraph separators (Unicode bidi class B): an isolate ends with its paragraph. */
// eslint-disable-next-line no-control-regex -- U+001C–U+001E are paragraph separators too
const PARAGRAPH_SEPARATOR = /(\r\n|[\n\r\u001C-\u001E\u0085\u2029])/;

/**
 * `isolateBidiControls` for plain text that no `<bdi>` closes (an e-mail, a system notification, a
 * line with other text after it): besides, each line closes the isolates it opened and drops the
 * closings it did not open, so it can reorder nothing after it nor close anything before it.
 */
export const containBidiControls = (text: string): string =>
  hasBidiControl(text)
    ? isolateBidiControls(text)
        .split(PARAGRAPH_SEPARATOR)
        .map((part, index) => {
          if (index % 2 === 1) return part; // a separator
          let open = 0;
          const kept = part.replace(/[\u2066-\u2069]/g, (char) => {
            if (char !== '\u2069') open += 1;
            else if (open > 0) open -= 1;
            else return '';
            return char;
          });
          return kept + '\u2069'.repeat(open);
        })
        .join('')
    : text;
