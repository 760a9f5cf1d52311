/**
 * Searching messages: how text becomes words, the same on the server (the full-text index of either
 * database, and the snippet) and on the page (which highlights the words in a snippet). Free of
 * zod so the client's first bundle can import it.
 *
 * A word is a run of letters and digits. Case, diacritics (Latin accents, Arabic short vowels and
 * other combining marks), tatweel and the forms of alef (أ إ آ ٱ → ا) are ignored.
 */

/** Letters and digits; combining marks are removed before words are cut. */
const WORD = /[\p{L}\p{N}]+/gu;
const COMBINING_MARK = /\p{M}/gu;
const TATWEEL = /\u0640/g;
/** Alef with hamza above/below, with madda, wasla (those with a decomposition lose their mark first). */
const ALEF_FORMS = /[\u0622\u0623\u0625\u0671]/g;
const ALEF = '\u0627';

/** Text as the index and the query see it: compatibility-decomposed, marks dropped, lower case. */
export const normalizeForSearch = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(COMBINING_MARK, '')
    .replace(TATWEEL, '')
    .replace(ALEF_FORMS, ALEF)
    .toLowerCase();

/** The words of a text, normalized, in order (repeats kept). */
export const searchWords = (text: string): string[] => normalizeForSearch(text).match(WORD) ?? [];

/**
 * What the full-text index of either database stores for a message: its normalized words joined
 * by single spaces (each database's own tokenizer then only splits on spaces, so both agree).
 */
export const searchDocument = (text: string): string => searchWords(text).join(' ');

/** The distinct words of a query, in order: each matches a word of a message that starts with it. */
export const queryWords = (query: string): string[] => [...new Set(searchWords(query))];

export const SEARCH_QUERY_MIN_LENGTH = 2;
export const SEARCH_QUERY_MAX_LENGTH = 100;
export const SEARCH_LIMIT_DEFAULT = 20;
export const SEARCH_LIMIT_MAX = 50;
export const SNIPPET_MAX_LENGTH = 200;

/** A word of the original text and where it is, with its normalized form. */
interface TextWord {
  start: number;
  end: number;
  normalized: string;
}

/**
 * The words of `text` where they are in `text` (offsets into the original, marks included in the
 * word they follow), each with its normalized form.
 */
const wordsWithOffsets = (text: string): TextWord[] => {
  const words: TextWord[] = [];
  // letters/digits, with any combining marks and tatweels inside or after them
  const pattern = /[\p{L}\p{N}][\p{L}\p{N}\p{M}\u0640]*/gu;
  for (const match of text.matchAll(pattern)) {
    const normalized = searchWords(match[0]).join('');
    if (normalized)
      words.push({ start: match.index, end: match.index + match[0].length, normalized });
  }
  return words;
};

const matchesAny = (word: string, words: readonly string[]): boolean =>
  words.some((queryWord) => word.startsWith(queryWord));

/**
 * Where the words of `query` are in `text` (each a prefix of a word of the text): ranges of the
 * original text, in order; what the page highlights.
 */
export const matchRanges = (text: string, query: string): { start: number; end: number }[] => {
  const words = queryWords(query);
  if (words.length === 0) return [];
  return wordsWithOffsets(text)
    .filter((word) => matchesAny(word.normalized, words))
    .map(({ start, end }) => ({ start, end }));
};

/**
 * Plain text around the first match of `query` in `text`, at most `SNIPPET_MAX_LENGTH`
 * characters (an ellipsis marks text left out on either side); the text's start when nothing
 * matches (a match in a file name, say). Line breaks become spaces.
 */
export const searchSnippet = (text: string, query: string): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= SNIPPET_MAX_LENGTH) return flat;
  const first = matchRanges(flat, query)[0];
  const room = SNIPPET_MAX_LENGTH - 2; // an ellipsis on each side at most
  let start = first ? Math.max(0, first.start - Math.floor(room / 3)) : 0;
  // not in the middle of a word when it can be helped
  if (start > 0) {
    const space = flat.lastIndexOf(' ', start);
    if (space >= 0 && start - space < 20) start = space + 1;
  }
  const end = Math.min(flat.length, start + room);
  if (end === flat.length) start = Math.max(0, end - room);
  // never cut a surrogate pair
  const safe = (index: number) =>
    index > 0 && index < flat.length && /[\uDC00-\uDFFF]/.test(flat[index] ?? '')
      ? index - 1
      : index;
  const from = safe(start);
  const to = safe(end);
  return `${from > 0 ? '…' : ''}${flat.slice(from, to).trim()}${to < flat.length ? '…' : ''}`;
};
