import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { MessengerUser, Role } from '../../../../shared/models.js';
import { useArchiveConversation } from '../api/archive-conversation.js';
import { findCachedConversation } from '../utils/conversation-cache.js';
import { otherPartyOf, withArchiveFlag } from '../utils/conversation-view.js';

/**
 * Focuses the row of a conversation once it is drawn (it moves back into the list a moment after
 * an Undo), else `fallback`; a few frames at most.
 */
const focusRowSoon = (conversationId: number, fallback: HTMLElement | null, frames = 20) => {
  const row = document.querySelector<HTMLElement>(
    `[data-testid="conversation-list"] [data-conversation-id="${conversationId}"]`,
  );
  if (row) {
    row.focus();
    return;
  }
  if (frames <= 0) {
    fallback?.focus();
    return;
  }
  requestAnimationFrame(() => focusRowSoon(conversationId, fallback, frames - 1));
};

interface ArchiveToastState {
  key: number;
  /** The conversation as it was before the archive. */
  item: MessengerUser;
  /** The archive's outcome: true once archived, false if the call failed. */
  done: Promise<boolean>;
}

/**
 * Archive and unarchive from the list, announced; an archive offers "Archived · Undo" (`toast`).
 * Undo waits for the archive's answer, so the two calls never cross, and a keyboard user's focus
 * goes with the row brought back (else to `focusFallback`).
 */
export const useArchiveWithUndo = ({
  viewerRole,
  announce,
  focusFallback,
}: {
  viewerRole: Role | undefined;
  announce: (message: string) => void;
  focusFallback: RefObject<HTMLElement | null>;
}) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { mutate: archive, mutateAsync: archiveAsync } = useArchiveConversation(viewerRole);
  const [toast, setToast] = useState<ArchiveToastState | null>(null);

  const onToggleArchive = useCallback(
    (item: MessengerUser, toArchive: boolean) => {
      if (!viewerRole) return;
      if (toArchive) {
        const done = archiveAsync({ item, archive: true }).then(
          () => true,
          () => {
            // not archived (the row is back already): nothing to undo
            setToast((current) => (current?.item.id === item.id ? null : current));
            return false;
          },
        );
        setToast((current) => ({ key: (current?.key ?? 0) + 1, item, done }));
      } else {
        archive({ item, archive: false });
        setToast((current) => (current?.item.id === item.id ? null : current));
      }
      const name = otherPartyOf(item, viewerRole).name;
      announce(
        toArchive
          ? t('conversations.archivedNotice', { name })
          : t('conversations.unarchivedNotice', { name }),
      );
    },
    [viewerRole, archive, archiveAsync, announce, t],
  );

  const undo = useCallback(() => {
    if (!toast) return;
    const { item, done } = toast;
    const focusWasInToast =
      document.activeElement instanceof HTMLElement &&
      document.activeElement.closest('.toast') !== null;
    setToast(null);
    void done.then((archived) => {
      if (!archived || !viewerRole) return;
      // the row as it is now, archived (`item` is the row before the archive): what a failed
      // unarchive puts back
      const current = findCachedConversation(queryClient, item.id) ?? item;
      onToggleArchive(withArchiveFlag(current, viewerRole, true), false);
      if (focusWasInToast) focusRowSoon(item.id, focusFallback.current);
    });
  }, [toast, viewerRole, queryClient, onToggleArchive, focusFallback]);

  const dismiss = useCallback(() => setToast(null), []);

  return { onToggleArchive, toast: toast ? { key: toast.key, undo, dismiss } : null };
};
