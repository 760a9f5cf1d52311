import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { AuthUser, Chat, MessengerUser } from '../../../shared/models.js';
import { markSeen } from '../../features/conversations/api/mark-seen.js';
import { useEmbed } from '../../features/embed/hooks/use-embed.js';
import {
  findCachedConversation,
  setCachedUnread,
} from '../../features/conversations/utils/conversation-cache.js';
import {
  selectionFor,
  type ConversationSelection,
} from '../../features/conversations/utils/conversation-view.js';
import { useApiClient } from '../../lib/api-provider.js';
import { useServices } from '../../lib/services.js';
import {
  clearSelectionFromUrl,
  isPushedConversationEntry,
  readSelectionFromSearch,
  writeSelectionToUrl,
} from '../url-selection.js';

/**
 * Which conversation is open, kept in the address (`?target=&tab=`, see url-selection.ts): opened
 * from the list, from a system notification, from the address at load, or by Back and Forward.
 * `onOpened` runs on every opening (the phone drawer closes).
 */
export const useSelection = (auth: AuthUser | undefined, onOpened: () => void) => {
  const client = useApiClient();
  const { initialSearch } = useServices();
  const queryClient = useQueryClient();
  /** In a host's frame the history is the host page's too: no entries of its own there. */
  const embedded = useEmbed() !== null;
  const [selection, setSelection] = useState<ConversationSelection | null>(null);
  /** The row it was opened from (the header's fallback while no list or thread holds it). */
  const [openedFrom, setOpenedFrom] = useState<MessengerUser | null>(null);
  /** Bumped by every opening: an answer that comes after the user moved on opens nothing. */
  const openings = useRef(0);
  /** Bumped when a conversation is opened from the list: the chat then focuses its message box. */
  const [composerFocusRequest, setComposerFocusRequest] = useState(0);
  const selectionRef = useRef(selection);
  selectionRef.current = selection;
  const onOpenedRef = useRef(onOpened);
  onOpenedRef.current = onOpened;

  /**
   * Opens a conversation. From the list (`push`) it becomes a history entry when none was open, so
   * Back returns to the list (phones); switching between conversations replaces the entry.
   */
  const open = useCallback(
    (item: MessengerUser, history: 'push' | 'replace' | 'none') => {
      if (!auth) return;
      const next = selectionFor(item, auth.role);
      const wasOpen = selectionRef.current !== null;
      setSelection((current) =>
        current &&
        current.selectedItem === next.selectedItem &&
        current.receiverId === next.receiverId &&
        current.jobId === next.jobId
          ? current
          : next,
      );
      setOpenedFrom(item);
      setCachedUnread(queryClient, item.id, 0);
      onOpenedRef.current();
      if (history !== 'none')
        writeSelectionToUrl(
          next.receiverId,
          item.id,
          history === 'push' && !wasOpen && !embedded ? 'push' : 'replace',
        );
    },
    [auth, queryClient, embedded],
  );

  const selectFromList = useCallback(
    (item: MessengerUser) => {
      openings.current += 1;
      open(item, 'push');
      setComposerFocusRequest((request) => request + 1);
    },
    [open],
  );

  /**
   * A message search's result was chosen: its conversation opens as from the list, but the focus
   * goes to the message found (the chat's), not to the message box.
   */
  const selectFromSearch = useCallback(
    (item: MessengerUser) => {
      openings.current += 1;
      open(item, 'push');
    },
    [open],
  );

  /**
   * The embedding page asked for a conversation (embed `open`, or the conversation mode's own): it
   * opens in place of the one open, without a history entry (the frame shares the host's history).
   */
  const selectFromHost = useCallback(
    (item: MessengerUser) => {
      openings.current += 1;
      open(item, 'replace');
    },
    [open],
  );

  /** A system notification was clicked: its conversation opens as if chosen in the list. */
  const openFromNotification = useCallback(
    (chat: Chat) => {
      const item = findCachedConversation(queryClient, chat.messenger_user_id);
      if (item) {
        selectFromList(item);
        return;
      }
      // not in a cached list (live events add rows, so only when no list is loaded): open it by
      // its ids; the header fills in from the thread
      setSelection({
        jobId: chat.job_id,
        receiverId: chat.sender_id,
        selectedItem: chat.messenger_user_id,
      });
    },
    [queryClient, selectFromList],
  );

  /**
   * Opens the conversation an address names. One the loaded list pages do not hold (a link from
   * an e-mail to a conversation far down a long list) is asked of the server (the seen-mark,
   * which opening does anyway): its job is needed to load its messages.
   */
  const openWanted = useCallback(
    (wanted: { target: number; tab: number }, history: 'replace' | 'none') => {
      const opening = (openings.current += 1);
      const item = findCachedConversation(queryClient, wanted.tab);
      if (item) {
        open(item, history);
        return;
      }
      const stillWanted = () => openings.current === opening;
      markSeen(client, wanted.tab).then(
        ({ messengerUser }) => {
          if (stillWanted()) open(messengerUser, history);
        },
        () => {
          if (stillWanted())
            setSelection({ jobId: null, receiverId: wanted.target, selectedItem: wanted.tab });
        },
      );
    },
    [client, open, queryClient],
  );

  // ?target=&tab= open a conversation once the list is there (the focus stays where it is)
  const openedFromUrl = useRef(false);
  useEffect(() => {
    if (openedFromUrl.current || !auth) return;
    openedFromUrl.current = true;
    const wanted = readSelectionFromSearch(initialSearch);
    if (!wanted) return;
    openWanted(wanted, 'replace');
  }, [auth, openWanted, initialSearch]);

  // Back and Forward: the address says which conversation is open, or none (the list)
  useEffect(() => {
    const onPopState = () => {
      const wanted = readSelectionFromSearch(location.search);
      if (!wanted) {
        setSelection(null);
        setOpenedFrom(null);
        return;
      }
      openWanted(wanted, 'none');
    };
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  }, [openWanted]);

  /** The chat's back arrow (small screens): the same as Back when the page opened it. */
  const backToList = useCallback(() => {
    if (isPushedConversationEntry()) {
      history.back();
      return;
    }
    setSelection(null);
    setOpenedFrom(null);
    clearSelectionFromUrl();
  }, []);

  return {
    selection,
    openedFrom,
    composerFocusRequest,
    selectFromList,
    selectFromSearch,
    selectFromHost,
    openFromNotification,
    backToList,
  };
};
