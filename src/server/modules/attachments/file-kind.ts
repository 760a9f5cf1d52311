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

/** Markup a browser would run or render if it ever sniffed the file: never accepted as text. */
const MARKUP =
  /<\s*(?:!doctype\s+html|html|head|body|script|iframe|svg|object|embed|style|meta|link|img|a\s|form|xml|\?xml)/i;

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
  if (MARKUP.test(new TextDecoder().decode(head))) return { allowed: false, found: 'html' };
  return { allowed: true, kind: 'txt', mime: MIME_OF.txt, image: false };
};
