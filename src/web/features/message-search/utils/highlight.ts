import { matchRanges } from '../../../../shared/search-text.js';

/** A piece of a snippet: plain, or one of the query's words (drawn as `<mark>`). */
export interface SnippetPart {
  text: string;
  match: boolean;
}

/**
 * A snippet cut where the query's words are (each a word of the text that starts with a word of the
 * query, ignoring case and diacritics, as the server matches), in order; the parts join back into
 * the text.
 */
export const highlightParts = (text: string, query: string): SnippetPart[] => {
  const parts: SnippetPart[] = [];
  let at = 0;
  for (const { start, end } of matchRanges(text, query)) {
    if (start > at) parts.push({ text: text.slice(at, start), match: false });
    parts.push({ text: text.slice(start, end), match: true });
    at = end;
  }
  if (at < text.length) parts.push({ text: text.slice(at), match: false });
  return parts;
};
