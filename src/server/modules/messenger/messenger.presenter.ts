import type { Chat, Job, MessageGroup, MessengerUser } from '../../../shared/models.js';
import { displayRelative } from '../../lib/time.js';
import type { ConversationRow, Side } from './conversation-query.repository.js';

// A message is shown by the shared chat read-model (notifications shows it the same way).
export {
  presentAttachment,
  presentChat,
  type AttachmentRow,
} from '../../read-model/chat.presenter.js';

const PREVIEW_LENGTH = 100;

export const previewOf = (message: string): string =>
  [...message].slice(0, PREVIEW_LENGTH).join('');

const flag = (value: number): 0 | 1 => (value ? 1 : 0);

export const presentJob = (row: Pick<Job, 'id' | 'title' | 'status' | 'deadline'>): Job => ({
  id: row.id,
  title: row.title,
  status: row.status,
  deadline: row.deadline,
});

/** The other party of the conversation, for the viewer on `side`. */
export const otherPartyId = (
  row: Pick<ConversationRow, 'candidate_id' | 'company_id'>,
  side: Side,
) => (side.party === 'candidate_id' ? row.company_id : row.candidate_id);

/** The party in `party`'s column blocked the other party of the conversation. */
export const blockedBy = (
  row: Pick<ConversationRow, 'candidate_blocked' | 'company_blocked'>,
  party: Side['party'],
): boolean => Number(party === 'candidate_id' ? row.candidate_blocked : row.company_blocked) !== 0;

/** Either party blocked the other: neither sees the other online. */
export const blockedEitherWay = (
  row: Pick<ConversationRow, 'candidate_blocked' | 'company_blocked'>,
): boolean => blockedBy(row, 'candidate_id') || blockedBy(row, 'company_id');

/**
 * Whether the other party lets the viewer see when they are online, and when they were last seen.
 * Both ways, as WhatsApp does: a viewer who hides their own online status sees nobody's; and
 * across a block, neither party sees the other online (the blocked one sees the blocker offline).
 */
const otherPresence = (
  row: ConversationRow,
  side: Side,
  online: ReadonlySet<number>,
): Pick<MessengerUser, 'other_online' | 'other_last_seen_at'> => {
  const candidateViews = side.party === 'candidate_id';
  const shows =
    (candidateViews ? row.company_show_online : row.candidate_show_online) !== 0 &&
    (candidateViews ? row.candidate_show_online : row.company_show_online) !== 0;
  const erased = (candidateViews ? row.company_erased_at : row.candidate_erased_at) !== null;
  if (!shows || erased || blockedEitherWay(row))
    return { other_online: false, other_last_seen_at: null };
  if (online.has(otherPartyId(row, side))) return { other_online: true, other_last_seen_at: null };
  return {
    other_online: false,
    other_last_seen_at: candidateViews ? row.company_last_seen_at : row.candidate_last_seen_at,
  };
};

/**
 * A conversation as the viewer on `side` sees it (unread count is theirs); `online`: who among the
 * other parties is online now (presence).
 */
export const presentConversation = (
  row: ConversationRow,
  side: Side,
  online: ReadonlySet<number>,
): MessengerUser => ({
  id: row.id,
  job_id: row.job_id,
  job:
    row.job_id !== null && row.job_title !== null
      ? presentJob({
          id: row.job_id,
          title: row.job_title,
          status: row.job_status ?? '',
          deadline: row.job_deadline,
        })
      : null,
  candidate_id: row.candidate_id,
  company_id: row.company_id,
  candidate: {
    id: row.candidate_id,
    user: { name: row.candidate_name, image_url: row.candidate_image_url },
  },
  company: { id: row.company_id, logo: row.company_logo, user: { name: row.company_name } },
  last_message: row.last_message,
  last_message_time: row.last_message_at ? displayRelative(row.last_message_at) : null,
  last_message_at: row.last_message_at,
  is_seen_messages_count: Number(row[side.unread]),
  company_archive: flag(row.company_archive),
  candidate_archive: flag(row.candidate_archive),
  ...(row.candidate_erased_at !== null || row.company_erased_at !== null
    ? { closed: true as const }
    : {}),
  blocked: blockedBy(row, side.party),
  ...otherPresence(row, side, online),
});

/** The preview of a message in the list: its text, or the first file's name when it has none. */
export const previewOfMessage = (message: string, attachmentNames: readonly string[]): string =>
  previewOf(message === '' ? (attachmentNames[0] ?? '') : message);

/** Date groups, oldest first; `chats` must be oldest first. */
export const groupByDate = (chats: Chat[]): MessageGroup[] => {
  const groups: MessageGroup[] = [];
  for (const chat of chats) {
    const last = groups.at(-1);
    if (last?.date === chat.messaging_date) last.chats.push(chat);
    else groups.push({ date: chat.messaging_date, chats: [chat] });
  }
  return groups;
};
