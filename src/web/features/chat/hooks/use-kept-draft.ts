import { useState } from 'react';
import { readDraft, updateDraft } from '../utils/draft-store.js';

/** A change of the draft: the new text, or how to make it from the current one. */
export type DraftChange = string | ((current: string) => string);

/**
 * The text of the message being written, kept per viewer and conversation (the draft store): it
 * starts from what was kept and every change is kept again.
 */
export const useKeptDraft = (
  viewerId: number,
  conversationId: number,
): [string, (change: DraftChange) => void] => {
  const [draft, setDraftState] = useState(() => readDraft(viewerId, conversationId).text);
  const setDraft = (change: DraftChange) =>
    setDraftState((current) => {
      const next = typeof change === 'function' ? change(current) : change;
      updateDraft(viewerId, conversationId, { text: next });
      return next;
    });
  return [draft, setDraft];
};
