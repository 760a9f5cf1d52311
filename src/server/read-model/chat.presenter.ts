import type { Chat, ChatAttachment, HostChat } from '../../shared/models.js';
import { paths } from '../../shared/paths.js';
import type { Selectable } from 'kysely';
import type { AttachmentsTable } from '../db/schema.js';
import { displayTime, isoDate } from '../lib/time.js';
import type { ChatRowWithSender } from './chat.repository.js';

// The chat read-model's presenter: a stored message as the contract's `Chat`.

/**
 * displayTime shows the UTC hour and minute only, and Intl formatting is slow (tens of µs): format
 * each minute of the day once. Stored timestamps are ISO UTC (`…THH:MM:ss.sssZ`); anything else is
 * formatted as is.
 */
const ISO_UTC_MINUTE = /^\d{4}-\d{2}-\d{2}T(\d{2}:\d{2}):\d{2}(?:\.\d+)?Z$/;
const timeOfMinute = new Map<string, string>();
const messagingTime = (timestamp: string): string => {
  const minute = ISO_UTC_MINUTE.exec(timestamp)?.[1];
  if (minute === undefined) return displayTime(timestamp);
  let text = timeOfMinute.get(minute);
  if (text === undefined) {
    text = displayTime(timestamp);
    timeOfMinute.set(minute, text);
  }
  return text;
};

/** An attachment row as a message carries it (its download addresses answer only the two parties). */
export type AttachmentRow = Pick<
  Selectable<AttachmentsTable>,
  'id' | 'chat_id' | 'name' | 'size' | 'mime' | 'width' | 'height' | 'thumbnail_key'
>;

export const presentAttachment = (row: AttachmentRow): ChatAttachment => ({
  id: row.id,
  name: row.name,
  size: row.size,
  mime: row.mime,
  ...(row.width !== null && row.height !== null ? { width: row.width, height: row.height } : {}),
  url: paths.attachment(row.id),
  ...(row.thumbnail_key !== null ? { thumbnail_url: paths.attachmentThumbnail(row.id) } : {}),
});

/**
 * A message as `viewerId` sees it (undefined: a host's view, webhooks). Read while its reader had
 * `read_receipts` off (decided when read), it looks unseen to everyone but the reader. Both ways,
 * as WhatsApp does: a viewer whose own `read_receipts` are off (`viewerHidesReceipts`) sees none on
 * the messages they sent.
 */
export const presentChat = (
  row: ChatRowWithSender,
  attachments: readonly AttachmentRow[] = [],
  viewerId?: number,
  viewerHidesReceipts = false,
): Chat => ({
  id: row.id,
  sender_id: row.sender_id,
  receiver_id: row.receiver_id,
  job_id: row.job_id,
  messenger_user_id: row.messenger_user_id,
  message: row.message,
  messaging_date: isoDate(row.created_at),
  messaging_time: messagingTime(row.created_at),
  created_at: row.created_at,
  seen_at:
    (row.seen_privately !== 0 && viewerId !== row.receiver_id) ||
    (viewerHidesReceipts && viewerId === row.sender_id)
      ? null
      : row.seen_at,
  client_id: row.client_id,
  sender: { id: row.sender_id, name: row.sender_name },
  attachments: attachments.map(presentAttachment),
  edited_at: row.edited_at,
  deleted_at: row.deleted_at,
});

/** The host's ids a message adds for the host (each null when the host did not make that user or job). */
export type ChatHostIds = Pick<
  HostChat,
  'sender_external_id' | 'receiver_external_id' | 'job_external_id'
>;

/** What a conversation row knows of the host's ids of its two parties and its job. */
export interface ConversationHostIds {
  candidate_id: number;
  candidate_external_id: string | null;
  company_external_id: string | null;
  job_external_id: string | null;
}

/** A message's host ids from its conversation's (no read of its own: the send path has the row at hand). */
export const chatHostIdsOf = (
  chat: Pick<ChatRowWithSender, 'sender_id' | 'job_id'>,
  conversation: ConversationHostIds,
): ChatHostIds => {
  const fromCandidate = chat.sender_id === conversation.candidate_id;
  return {
    sender_external_id: fromCandidate
      ? conversation.candidate_external_id
      : conversation.company_external_id,
    receiver_external_id: fromCandidate
      ? conversation.company_external_id
      : conversation.candidate_external_id,
    job_external_id: chat.job_id === null ? null : conversation.job_external_id,
  };
};

/** A message as the host sees it (integration API, webhooks): its `Chat` with the host's ids. */
export const presentHostChat = (
  row: ChatRowWithSender,
  attachments: readonly AttachmentRow[],
  ids: ChatHostIds,
): HostChat => ({
  ...presentChat(row, attachments),
  sender_external_id: ids.sender_external_id,
  receiver_external_id: ids.receiver_external_id,
  job_external_id: ids.job_external_id,
});
