import type { Chat } from '../../../../shared/models.js';

/** Messages of one sender this close together read as one run: name and time show once. */
export const RUN_GAP_MS = 5 * 60_000;

const instant = (chat: Chat): number => new Date(chat.created_at).getTime();

/**
 * True when `chat` continues the run of `previous` (the message just before it in the same date
 * group): same sender, sent within RUN_GAP_MS after it. Unparsable times never continue a run.
 */
export const continuesRun = (previous: Chat | undefined, chat: Chat): boolean => {
  if (!previous || previous.sender_id !== chat.sender_id) return false;
  const gap = instant(chat) - instant(previous);
  return Number.isFinite(gap) && gap >= 0 && gap <= RUN_GAP_MS;
};
