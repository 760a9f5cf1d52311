import { useCallback, useEffect, useLayoutEffect, useRef, useState, type UIEvent } from 'react';
import type { Chat } from '../../../../shared/models.js';

/** Older messages start loading when the view is this close to the top. */
export const LOAD_OLDER_THRESHOLD_PX = 120;
/** Within this distance of the bottom the view counts as "at the newest message" and follows. */
export const FOLLOW_THRESHOLD_PX = 48;

interface ScrollSnapshot {
  threadKey: string;
  firstId: number | undefined;
  lastId: number | undefined;
  pendingCount: number;
}

interface MessageListScrollOptions {
  /** Changes when another conversation opens (the view then starts at the bottom). */
  threadKey: string;
  chats: readonly Chat[];
  viewerId: number;
  /** How many own messages are sent but not confirmed yet. */
  pendingCount: number;
  loading: boolean;
  hasOlder: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  /** The message asked for (a search result), once per `request`. */
  focusTarget: { messageId: number; request: number } | null | undefined;
}

/**
 * Where the message list is scrolled: it opens at the bottom and follows new messages while the
 * viewer is at the bottom (and always for their own); a viewer reading history stays put and
 * `newBelow` says a "New messages" button is due. When older messages are prepended, or the content
 * or the window changes size, the view keeps the same distance from the bottom so nothing jumps.
 * Near the top the older messages are asked for.
 */
export const useMessageListScroll = ({
  threadKey,
  chats,
  viewerId,
  pendingCount,
  loading,
  hasOlder,
  loadingOlder,
  onLoadOlder,
  focusTarget,
}: MessageListScrollOptions) => {
  const scrollRef = useRef<HTMLDivElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  const snapshot = useRef<ScrollSnapshot | null>(null);
  /** How far below the visible part the newest message is (0: at the bottom). */
  const gapBelow = useRef(0);
  const [newBelow, setNewBelow] = useState(false);
  const firstId = chats[0]?.id;
  const lastId = chats[chats.length - 1]?.id;

  const rememberDistance = useCallback(() => {
    const element = scrollRef.current;
    if (element)
      gapBelow.current = Math.max(
        0,
        element.scrollHeight - element.scrollTop - element.clientHeight,
      );
  }, []);

  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    const previous = snapshot.current;
    const wasAtBottom = gapBelow.current <= FOLLOW_THRESHOLD_PX;
    if (!previous || previous.threadKey !== threadKey) {
      element.scrollTop = element.scrollHeight;
    } else if (pendingCount > previous.pendingCount) {
      element.scrollTop = element.scrollHeight; // the viewer's own message: show it
      setNewBelow(false);
    } else if (previous.lastId !== lastId) {
      const ownNewest = chats[chats.length - 1]?.sender_id === viewerId;
      if (wasAtBottom || ownNewest) {
        element.scrollTop = element.scrollHeight;
        setNewBelow(false);
      } else {
        setNewBelow(true); // reading history: stay put
      }
    } else if (previous.firstId !== firstId) {
      element.scrollTop = element.scrollHeight - element.clientHeight - gapBelow.current;
    }
    snapshot.current = { threadKey, firstId, lastId, pendingCount };
    rememberDistance();
  }, [threadKey, firstId, lastId, pendingCount, chats, viewerId, rememberDistance]);

  // a message asked for (a search result) is centered and takes the focus, once per request; after
  // the scroll kept above, so that it wins over staying at the bottom
  const focusedRequest = useRef(0);
  const focusId = focusTarget?.messageId;
  const focusRequest = focusTarget?.request ?? 0;
  useLayoutEffect(() => {
    if (!focusRequest || focusRequest === focusedRequest.current) return;
    const bubble = scrollRef.current?.querySelector<HTMLElement>(`[data-chat-id="${focusId}"]`);
    if (!bubble) return;
    focusedRequest.current = focusRequest;
    bubble.scrollIntoView({ block: 'center' });
    bubble.focus({ preventScroll: true });
    rememberDistance();
    setNewBelow(false);
  }, [focusId, focusRequest, chats, loading, rememberDistance]);

  const jumpToNewest = () => {
    const element = scrollRef.current;
    if (element) element.scrollTop = element.scrollHeight;
    setNewBelow(false);
    rememberDistance();
  };

  // When the content or the window changes size (fonts, wrapping, a resized or rotated window) keep
  // the same distance from the bottom: a viewer at the newest message stays there.
  useEffect(() => {
    const element = scrollRef.current;
    const content = contentRef.current;
    if (!element || !content || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      element.scrollTop = element.scrollHeight - element.clientHeight - gapBelow.current;
    });
    observer.observe(content);
    observer.observe(element);
    return () => observer.disconnect();
  }, [loading]);

  const requestOlder = useCallback(() => {
    if (!hasOlder || loadingOlder || loading) return;
    rememberDistance();
    onLoadOlder();
  }, [hasOlder, loadingOlder, loading, onLoadOlder, rememberDistance]);

  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    rememberDistance();
    const element = event.currentTarget;
    if (element.scrollHeight - element.scrollTop - element.clientHeight <= FOLLOW_THRESHOLD_PX)
      setNewBelow(false);
    if (event.currentTarget.scrollTop <= LOAD_OLDER_THRESHOLD_PX) requestOlder();
  };

  return { scrollRef, contentRef, newBelow, jumpToNewest, requestOlder, onScroll };
};
