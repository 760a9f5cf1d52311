import { createReadStream } from 'node:fs';
import { fileTypeFromBuffer } from 'file-type';

/** What an upload is, judged from its first bytes (never from its name or declared type). */
export type FileKind =
  | { allowed: true; kind: AllowedKind; mime: string; image: boolean }
  | { allowed: false; found: string };

export type AllowedKind =
  'pdf' | 'doc' | 'docx' | 'odt' | 'rtf' | 'txt' | 'png' | 'jpeg' | 'webp' | 'gif';

/** How many first bytes are looked at. */
export const SNIFF_BYTES = 4100;

const BY_MIME: Record<string, { kind: AllowedKind; image: boolean }> = {
  'application/pdf': { kind: 'pdf', image: false },
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': {
    kind: 'docx',
    image: false,
  },
  'application/vnd.oasis.opendocument.text': { kind: 'odt', image: false },
  'application/rtf': { kind: 'rtf', image: false },
  'image/png': { kind: 'png', image: true },
  'image/jpeg': { kind: 'jpeg', image: true },
  'image/webp': { kind: 'webp', image: true },
  'image/gif': { kind: 'gif', image: true },
};

const MIME_OF: Record<AllowedKind, string> = {
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  odt: 'application/vnd.oasis.opendocument.text',
  rtf: 'application/rtf',
  txt: 'text/plain',
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
};

/**
 * Whether bytes of text hold markup: any `<` followed by a letter (either case), `!`, `/` or `?`
 * (`<video>`, `<details ontoggle>`, `<math>`, `<!--`, `</x`, `<?xml`). Not a list of tags, which
 * always misses one. Judged on bytes: in UTF-8 an ASCII byte is never part of another character.
 */
const isMarkupStart = (lt: number, next: number): boolean =>
  lt === 0x3c &&
  ((next >= 0x41 && next <= 0x5a) ||
    (next >= 0x61 && next <= 0x7a) ||
    next === 0x21 ||
    next === 0x2f ||
    next === 0x3f);

export const holdsMarkup = (bytes: Buffer): boolean => {
  for (let index = bytes.indexOf(0x3c); index !== -1; index = bytes.indexOf(0x3c, index + 1))
    if (index + 1 < bytes.length && isMarkupStart(0x3c, bytes[index + 1] ?? 0)) return true;
  return false;
};

/**
 * Whether a whole file holds markup (see `holdsMarkup`), read as a stream: a TXT upload is judged
 * on every byte, not only its first SNIFF_BYTES; a `<` at the end of one chunk is judged with the
 * first byte of the next.
 */
export const fileHoldsMarkup = async (path: string): Promise<boolean> => {
  let previous = -1;
  for await (const chunk of createReadStream(path, {
    highWaterMark: 64 * 1024,
  }) as AsyncIterable<Buffer>) {
    if (chunk.length === 0) continue;
    if (isMarkupStart(previous, chunk[0] ?? 0) || holdsMarkup(chunk)) return true;
    previous = chunk[chunk.length - 1] ?? -1;
  }
  return false;
};

/** Plain text: valid UTF-8 (a cut-off last character allowed), no NUL or other control bytes. */
const looksLikeText = (head: Buffer): boolean => {
  if (head.length === 0) return false;
  for (const byte of head)
    if (
      byte === 0 ||
      (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c)
    )
      return false;
  const decoded = new TextDecoder('utf-8', { fatal: false }).decode(head);
  const replaced = (decoded.match(/\uFFFD/g) ?? []).length;
  return replaced <= 1;
};

/**
 * The kind of a file from its first bytes: the allowed kinds of the contract (PDF, DOC/DOCX, ODT,
 * RTF, TXT, PNG, JPEG, WEBP, GIF), or what was found instead (named in the 422). An OLE compound
 * file is taken as DOC (Word 97–2003); text that holds HTML or other markup is refused as `html`.
 * A file judged `txt` here must then be read whole with `fileHoldsMarkup`.
 */
export const judgeFileKind = async (head: Buffer): Promise<FileKind> => {
  const detected = await fileTypeFromBuffer(head);
  if (detected) {
    const known = BY_MIME[detected.mime];
    if (known)
      return { allowed: true, kind: known.kind, mime: MIME_OF[known.kind], image: known.image };
    if (detected.ext === 'cfb')
      return { allowed: true, kind: 'doc', mime: MIME_OF.doc, image: false };
    return { allowed: false, found: detected.ext };
  }
  const text = head.toString('latin1');
  if (/^\s*\{\\rtf/.test(text))
    return { allowed: true, kind: 'rtf', mime: MIME_OF.rtf, image: false };
  if (!looksLikeText(head)) return { allowed: false, found: 'unknown binary' };
  if (holdsMarkup(head)) return { allowed: false, found: 'html' };
  return { allowed: true, kind: 'txt', mime: MIME_OF.txt, image: false };
};
