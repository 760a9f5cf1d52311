/** How a file is described on the page: its kind ("PDF") and its size ("2.5 MB"), in bubbles and chips. */

const KIND_LABELS: Record<string, string> = {
  'application/pdf': 'PDF',
  'application/msword': 'DOC',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'DOCX',
  'application/vnd.oasis.opendocument.text': 'ODT',
  'application/rtf': 'RTF',
  'text/rtf': 'RTF',
  'text/plain': 'TXT',
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'image/webp': 'WEBP',
  'image/gif': 'GIF',
};

/**
 * The kind's short name: from the MIME type (the server's judged one once uploaded), else, before
 * the upload, from the name's extension (browsers leave `type` empty for many documents); null when
 * neither says anything.
 */
export const kindLabel = (mime: string, name = ''): string | null => {
  const known = KIND_LABELS[mime.toLowerCase()];
  if (known) return known;
  const extension = /\.([a-z0-9]{1,8})$/i.exec(name)?.[1];
  if (extension) return extension.toUpperCase();
  return mime || null;
};

/** Kilobytes (at least 0.1) below 1 MiB, megabytes above, with the language's unit and digits. */
export const formatFileSize = (bytes: number, locale: string): string =>
  new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: bytes >= 1024 * 1024 ? 'megabyte' : 'kilobyte',
    unitDisplay: 'short',
    maximumFractionDigits: 1,
  }).format(bytes >= 1024 * 1024 ? bytes / (1024 * 1024) : Math.max(0.1, bytes / 1024));
