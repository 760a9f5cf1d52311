import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useApiClient } from '../../../lib/api-provider.js';
import { useLiveEvent } from '../../../lib/realtime.js';
import { getLatestMessages } from '../api/get-messages.js';
import {
  applyChatMessageToThread,
  applyMessageUpdateToThread,
  applyPresenceToThread,
  markOwnSeen,
  mergeLatestPage,
  threadKeys,
  type ThreadData,
  type ThreadKeyParts,
} from '../utils/thread-cache.js';

/** The cached threads of one conversation (whatever receiver and job their keys carry). */
const threadsOf = (conversationId: number) => ({ queryKey: [...threadKeys.all, conversationId] });

/**
 * Keeps the cached threads current from live events, without fetching: a stored message joins its
 * conversation's thread (the send's answer comes the same way), an edited or deleted message
 * replaces its loaded copy (an edit's answer and a deletion come the same way), a read receipt marks the viewer's
 * messages seen, a partner's presence shows on the conversation record. After a (re)subscription
 * the open conversation's latest page is fetched and merged (nothing missed stays missing).
 */
export const useLiveThreads = (open: ThreadKeyParts | null, viewerId: number | undefined) => {
  const client = useApiClient();
  const queryClient = useQueryClient();

  useLiveEvent('ChatMessage', ({ chatMessage, messengerUser }) =>
    queryClient.setQueriesData<ThreadData>(threadsOf(chatMessage.messenger_user_id), (data) =>
      applyChatMessageToThread(data, chatMessage, messengerUser),
    ),
  );
  useLiveEvent('MessageUpdated', ({ message, messengerUser }) =>
    queryClient.setQueriesData<ThreadData>(threadsOf(message.messenger_user_id), (data) =>
      applyMessageUpdateToThread(data, message, messengerUser),
    ),
  );
  useLiveEvent('MessagesSeen', (event) =>
    queryClient.setQueriesData<ThreadData>(threadsOf(event.messenger_user_id), (data) =>
      markOwnSeen(data, event),
    ),
  );
  useLiveEvent('PresenceChanged', (event) => {
    if (viewerId === undefined) return;
    queryClient.setQueriesData<ThreadData>({ queryKey: threadKeys.all }, (data) =>
      applyPresenceToThread(data, event, viewerId),
    );
  });
  useLiveEvent('CatchUp', () => {
    if (!open || open.receiverId === null) return;
    const key = threadKeys.thread(open);
    if (!queryClient.getQueryData(key)) return; // still loading: that answer is fresh anyway
    getLatestMessages(client, { receiverId: open.receiverId, jobId: open.jobId })
      .then((fresh) => {
        queryClient.setQueryData<ThreadData>(key, (data) =>
          data ? mergeLatestPage(data, fresh) : data,
        );
      })
      .catch((error: unknown) => console.error('Could not catch up the open conversation', error));
  });
};

/** "X is typing…" shows this long after the last `Typing` event, unless their message comes first. */
export const TYPING_SHOWN_MS = 6_000;

/** The conversations whose other party is typing now (ids), from `Typing` events. */
export const useTypingConversations = (viewerId: number | undefined): ReadonlySet<number> => {
  const [typingIn, setTypingIn] = useState<ReadonlySet<number>>(() => new Set());
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  const stopTyping = useCallback((conversationId: number) => {
    const timer = timers.current.get(conversationId);
    if (timer === undefined) return;
    clearTimeout(timer);
    timers.current.delete(conversationId);
    setTypingIn((current) => {
      const next = new Set(current);
      next.delete(conversationId);
      return next;
    });
  }, []);
  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach((timer) => clearTimeout(timer));
  }, []);

  useLiveEvent('Typing', (event) => {
    if (event.user_id === viewerId) return;
    const conversationId = event.messenger_user_id;
    const timer = timers.current.get(conversationId);
    if (timer !== undefined) clearTimeout(timer);
    timers.current.set(
      conversationId,
      setTimeout(() => stopTyping(conversationId), TYPING_SHOWN_MS),
    );
    setTypingIn((current) =>
      current.has(conversationId) ? current : new Set(current).add(conversationId),
    );
  });
  // their message is here: they are no longer typing it
  useLiveEvent('ChatMessage', ({ chatMessage }) => {
    if (viewerId !== undefined && chatMessage.sender_id !== viewerId)
      stopTyping(chatMessage.messenger_user_id);
  });
  return typingIn;
};
