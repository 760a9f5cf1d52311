import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuthUser, Chat } from '../../../shared/models.js';
import {
  appendChat,
  applyPresenceToThread,
  markOwnSeen,
  mergeLatestPage,
  threadKeys,
  type ThreadData,
} from '../../features/chat/utils/thread-cache.js';
import type { ChatMessageEvent } from '../../../shared/events.js';
import {
  applyChatEventToLists,
  applyPresenceToLists,
  refetchFirstPages,
  replaceCachedConversation,
} from '../../features/conversations/utils/conversation-cache.js';
import type { ConversationSelection } from '../../features/conversations/utils/conversation-view.js';
import { useRealtimeConnection } from '../../features/realtime/hooks/use-realtime-connection.js';
import { useApi } from '../../lib/api.js';
import type { LiveStatus } from '../../lib/live-status.js';
import { useServices } from '../../lib/services.js';

interface LiveUpdatesOptions {
  auth: AuthUser | undefined;
  selection: ConversationSelection | null;
  muted: boolean;
  announce: (message: string) => void;
  /** Called with every live message (the page shows a system notification when it should). */
  notify?: (chat: Chat, viewerId: number) => void;
}

/** "X is typing…" shows this long after the last `Typing` event, unless their message comes first. */
export const TYPING_SHOWN_MS = 6_000;

const threadKeyOf = (selection: ConversationSelection) =>
  threadKeys.thread({
    conversationId: selection.selectedItem,
    receiverId: selection.receiverId,
    jobId: selection.jobId,
  });

/**
 * Live `ChatMessage` events (spec §4 "Incoming live message", matched by conversation id), applied
 * to the cached list and thread without reloading the list, and the catch-up after each
 * (re)subscription (ADR 010). The tab becoming visible again fetches nothing by itself: a socket
 * that dropped meanwhile reconnects, and that reconnection catches up.
 */
export const useLiveUpdates = ({
  auth,
  selection,
  muted,
  announce,
  notify,
}: LiveUpdatesOptions) => {
  const api = useApi();
  const { sound } = useServices();
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  const latest = useRef({ auth, selection, muted, announce, notify, t });
  useEffect(() => {
    latest.current = { auth, selection, muted, announce, notify, t };
  });

  const connection = useRealtimeConnection(auth?.id);

  /**
   * After a (re)subscription: the first page of each list held, again (further pages come back as
   * the user scrolls), and the open conversation's latest page merged.
   */
  const resync = useCallback(() => {
    void refetchFirstPages(queryClient);
    const { selection: open } = latest.current;
    if (!open || open.receiverId === null) return;
    const key = threadKeyOf(open);
    if (!queryClient.getQueryData(key)) return; // still loading: that answer is fresh anyway
    api
      .getMessages({ receiver_id: open.receiverId, job_id: open.jobId })
      .then((fresh) => {
        queryClient.setQueryData(key, (data: Parameters<typeof mergeLatestPage>[0]) =>
          data ? mergeLatestPage(data, fresh) : data,
        );
      })
      .catch((error: unknown) => console.error('Could not catch up the open conversation', error));
  }, [api, queryClient]);

  /** Conversations whose other party is typing now (ids). */
  const [typingIn, setTypingIn] = useState<ReadonlySet<number>>(() => new Set());
  const typingTimers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  const stopTyping = useCallback((conversationId: number) => {
    const timer = typingTimers.current.get(conversationId);
    if (timer === undefined) return;
    clearTimeout(timer);
    typingTimers.current.delete(conversationId);
    setTypingIn((current) => {
      const next = new Set(current);
      next.delete(conversationId);
      return next;
    });
  }, []);
  const startTyping = useCallback(
    (conversationId: number) => {
      const timer = typingTimers.current.get(conversationId);
      if (timer !== undefined) clearTimeout(timer);
      typingTimers.current.set(
        conversationId,
        setTimeout(() => stopTyping(conversationId), TYPING_SHOWN_MS),
      );
      setTypingIn((current) =>
        current.has(conversationId) ? current : new Set(current).add(conversationId),
      );
    },
    [stopTyping],
  );
  useEffect(() => {
    const timers = typingTimers.current;
    return () => timers.forEach((timer) => clearTimeout(timer));
  }, []);

  const onChat = useCallback(
    ({ chatMessage: chat, messengerUser }: ChatMessageEvent) => {
      const {
        auth: viewer,
        selection: open,
        muted: isMuted,
        announce: say,
        notify: showNotification,
        t: translate,
      } = latest.current;
      if (!viewer) return;
      // their message is here: they are no longer typing it
      if (chat.sender_id !== viewer.id) stopTyping(chat.messenger_user_id);
      if (chat.receiver_id === viewer.id && !isMuted) sound.play();
      showNotification?.(chat, viewer.id);
      if (chat.sender_id !== viewer.id) {
        say(translate('chat.newMessageFrom', { name: chat.sender.name, message: chat.message }));
      }
      if (open && chat.messenger_user_id === open.selectedItem) {
        queryClient.setQueryData(threadKeyOf(open), (data: Parameters<typeof appendChat>[0]) =>
          appendChat(data, chat),
        );
        // being read: no unread count, and the answer of the seen-mark is the row as it is now
        applyChatEventToLists(queryClient, { ...messengerUser, is_seen_messages_count: 0 });
        if (messengerUser.is_seen_messages_count === 0) return; // nothing to mark (e.g. own message)
        api
          .markSeen(open.selectedItem)
          .then((answer) => replaceCachedConversation(queryClient, answer.messengerUser))
          .catch((error: unknown) =>
            console.error('Could not mark the conversation as seen', error),
          );
        return;
      }
      applyChatEventToLists(queryClient, messengerUser, chat);
    },
    [api, queryClient, sound, stopTyping],
  );

  useEffect(() => {
    if (!connection || auth?.id === undefined) return;
    // anything sent between the first load and the subscription is caught up once subscribed
    const stopListening = connection.listenForChatMessages(auth.id, onChat, resync);
    const viewerId = auth.id;
    const stopActivity = connection.listenForActivity(viewerId, {
      presence: (event) => {
        applyPresenceToLists(queryClient, event);
        queryClient.setQueriesData<ThreadData>({ queryKey: threadKeys.all }, (data) =>
          applyPresenceToThread(data, event, viewerId),
        );
      },
      seen: (event) =>
        queryClient.setQueriesData<Parameters<typeof markOwnSeen>[0]>(
          { queryKey: [...threadKeys.all, event.messenger_user_id] },
          (data) => markOwnSeen(data, event),
        ),
      typing: (event) => {
        if (event.user_id !== viewerId) startTyping(event.messenger_user_id);
      },
    });
    const stopReconnect = connection.onReconnected(resync);
    return () => {
      stopListening();
      stopActivity();
      stopReconnect();
    };
  }, [connection, auth?.id, onChat, resync, queryClient, startTyping]);

  const [liveStatus, setLiveStatus] = useState<LiveStatus>('connecting');
  useEffect(() => {
    if (!connection) return;
    setLiveStatus(connection.status());
    return connection.onStatusChange(setLiveStatus);
  }, [connection]);

  return { liveStatus, typingIn };
};
