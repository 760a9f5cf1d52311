import type { Chat, MessengerUser } from '../../../../shared/models.js';
import { collectChats, type ThreadData } from './thread-cache.js';

/** The list shows a message's first 100 characters (code points), as the server cuts it. */
const PREVIEW_LENGTH = 100;

/** A message as the conversation list previews it: its text, or its first file's name. */
export const previewOfChat = (chat: Chat): string =>
  [...(chat.message === '' ? (chat.attachments[0]?.name ?? '') : chat.message)]
    .slice(0, PREVIEW_LENGTH)
    .join('');

/** When the sender may no longer edit or delete `chat` (ms since the epoch). */
const changeableUntil = (chat: Chat, windowMs: number): number =>
  Date.parse(chat.created_at) + windowMs;

/** Whether the viewer may still edit or delete `chat`: their own, not deleted, within the window. */
export const isChangeable = (
  chat: Chat,
  viewerId: number,
  now: number,
  windowMs: number,
): boolean =>
  chat.sender_id === viewerId && !chat.deleted_at && now < changeableUntil(chat, windowMs);

/** The moment the next of these messages leaves the window (undefined: none is changeable). */
export const nextWindowEnd = (
  chats: readonly Chat[],
  viewerId: number,
  now: number,
  windowMs: number,
): number | undefined => {
  let next: number | undefined;
  for (const chat of chats) {
    if (!isChangeable(chat, viewerId, now, windowMs)) continue;
    const end = changeableUntil(chat, windowMs);
    if (next === undefined || end < next) next = end;
  }
  return next;
};

/** A message as the server keeps a deleted one: its place, no text, no files. */
export const deletedVersion = (chat: Chat, deletedAt: string): Chat => ({
  ...chat,
  message: '',
  attachments: [],
  deleted_at: deletedAt,
});

/**
 * The conversation after the viewer deleted `deletedId`, from the loaded thread: when it was the
 * latest message, the preview becomes the newest remaining message that is not deleted (null when
 * none is left); the rest of the record (and its activity time: a deletion is not new activity)
 * stays. Undefined when the thread is not loaded.
 */
export const recordAfterDeletion = (
  data: ThreadData | undefined,
  deletedId: number,
): MessengerUser | undefined => {
  const record = data?.pages[0]?.messengerUser;
  if (!record) return undefined;
  const chats = collectChats(data);
  // the row previews the newest message not deleted: was it this one?
  const shown = chats.filter((chat) => !chat.deleted_at);
  if (shown[shown.length - 1]?.id !== deletedId) return record;
  const remaining = shown.filter((chat) => chat.id !== deletedId);
  const newest = remaining[remaining.length - 1];
  return { ...record, last_message: newest ? previewOfChat(newest) : null };
};
