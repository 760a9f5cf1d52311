import type { UploadedAttachment } from '../../../../shared/attachment-uploads.js';

/**
 * What the viewer typed in a conversation and did not send yet, and a message whose send failed,
 * kept per viewer and conversation in localStorage: switching conversations or reloading loses
 * neither. The failed message keeps its `client_id`, so a retry can never store it twice, and the
 * uploads it carried (uploaded already: the retry sends their ids again). Files uploaded for the
 * message being written are kept too (`files`), while the server keeps them (24 hours).
 */
export interface Draft {
  text: string;
  failed: { text: string; clientId: string; attachments?: readonly UploadedAttachment[] } | null;
  /** Files uploaded for the message being written (not sent yet): chips again after a reload. */
  files?: readonly DraftFile[];
}

/** An uploaded file of the draft; `savedAt` (ms): when the draft first kept it. */
export interface DraftFile extends UploadedAttachment {
  savedAt: number;
}

/** The server deletes an upload not sent within 24 hours (contract, "Attachments"). */
export const UNSENT_UPLOAD_KEPT_MS = 24 * 3600 * 1000;

const isUpload = (value: unknown): value is UploadedAttachment => {
  if (typeof value !== 'object' || value === null) return false;
  const { id, name, size, mime } = value as Record<string, unknown>;
  return (
    typeof id === 'number' &&
    typeof name === 'string' &&
    typeof size === 'number' &&
    typeof mime === 'string'
  );
};

const isDraftFile = (value: unknown): value is DraftFile =>
  isUpload(value) && typeof (value as unknown as Record<string, unknown>).savedAt === 'number';

const EMPTY: Draft = { text: '', failed: null };
const PREFIX = 'messenger.draft';

const storage = (): Storage | null => {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage disabled by the browser: drafts then live as long as the page
  }
};

const keyOf = (viewerId: number, conversationId: number) =>
  `${PREFIX}.${viewerId}.${conversationId}`;

const isDraft = (value: unknown): value is Draft => {
  if (typeof value !== 'object' || value === null) return false;
  const { text, failed, files } = value as Record<string, unknown>;
  if (typeof text !== 'string') return false;
  if (files !== undefined && !(Array.isArray(files) && files.every(isDraftFile))) return false;
  if (failed === null) return true;
  if (typeof failed !== 'object' || failed === undefined) return false;
  const entry = failed as Record<string, unknown>;
  return (
    typeof entry.text === 'string' &&
    typeof entry.clientId === 'string' &&
    (entry.attachments === undefined ||
      (Array.isArray(entry.attachments) && entry.attachments.every(isUpload)))
  );
};

export const readDraft = (viewerId: number, conversationId: number): Draft => {
  try {
    const stored = storage()?.getItem(keyOf(viewerId, conversationId));
    const parsed: unknown = stored ? JSON.parse(stored) : null;
    return isDraft(parsed) ? parsed : EMPTY;
  } catch {
    return EMPTY;
  }
};

/** Saves part of a draft; an empty draft removes its entry. */
export const updateDraft = (
  viewerId: number,
  conversationId: number,
  change: Partial<Draft>,
): void => {
  const next = { ...readDraft(viewerId, conversationId), ...change };
  try {
    const store = storage();
    if (!store) return;
    if (next.text === '' && next.failed === null && !next.files?.length)
      store.removeItem(keyOf(viewerId, conversationId));
    else store.setItem(keyOf(viewerId, conversationId), JSON.stringify(next));
  } catch {
    // quota exceeded: the draft stays on screen, just not across reloads
  }
};
