import { useEffect, useMemo, useState } from 'react';
import type { Chat } from '../../../../shared/models.js';
import { isChangeable, nextWindowEnd } from '../utils/message-edits.js';

/** A timer longer than this is set again later (setTimeout's limit is about 24.8 days). */
const LONGEST_WAIT_MS = 2 ** 31 - 1;

/**
 * The ids of the viewer's messages they may still edit or delete (their own, not deleted, younger
 * than the edit window). Evaluated again when the messages change and when the next of them leaves
 * the window, so the controls go away on time.
 */
export const useChangeableMessages = (
  chats: readonly Chat[],
  viewerId: number,
  windowMs: number,
): ReadonlySet<number> => {
  const [now, setNow] = useState(() => Date.now());
  const ids = useMemo(
    () =>
      new Set(
        chats.filter((chat) => isChangeable(chat, viewerId, now, windowMs)).map((chat) => chat.id),
      ),
    [chats, viewerId, now, windowMs],
  );
  // a message that arrived since the last evaluation: its window is measured from a fresh "now"
  useEffect(() => setNow(Date.now()), [chats]);
  useEffect(() => {
    const end = nextWindowEnd(chats, viewerId, now, windowMs);
    if (end === undefined) return;
    const timer = setTimeout(
      () => setNow(Date.now()),
      Math.min(LONGEST_WAIT_MS, Math.max(0, end - now) + 50),
    );
    return () => clearTimeout(timer);
  }, [chats, viewerId, now, windowMs]);
  return ids;
};
