export type TextPart =
  { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

/**
 * http(s) addresses in running text, and bare `www.` ones (opened over https); anything else
 * (javascript:, data:, mailto:, an e-mail's `@www.` domain) stays text.
 */
const URL_PATTERN =
  /\bhttps?:\/\/[^\s<>"'`]+|(?<![\p{L}\p{N}@._/-])www\.[\p{L}\p{N}-]+\.[^\s<>"'`]+/giu;
/** Punctuation that ends a sentence rather than the address ("see https://x.example/a."). */
const TRAILING = /[.,;:!?)\]}'"»]+$/;

const safeHref = (candidate: string): string | null => {
  try {
    const url = new URL(candidate);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
};

/** Splits a message into text and http(s) (or bare www.) links, in order; the text is never interpreted as HTML. */
export const linkify = (message: string): TextPart[] => {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of message.matchAll(URL_PATTERN)) {
    let text = match[0];
    const trailing = TRAILING.exec(text)?.[0] ?? '';
    // Keep a closing parenthesis that belongs to the address (Wikipedia-style links).
    const keepParen = trailing.startsWith(')') && text.includes('(');
    if (trailing && !keepParen) text = text.slice(0, -trailing.length);
    const href = safeHref(/^www\./i.test(text) ? `https://${text}` : text);
    const start = match.index;
    if (!href || start === undefined) continue;
    if (start > last) parts.push({ kind: 'text', text: message.slice(last, start) });
    parts.push({ kind: 'link', text, href });
    last = start + text.length;
  }
  if (last < message.length) parts.push({ kind: 'text', text: message.slice(last) });
  return parts;
};
