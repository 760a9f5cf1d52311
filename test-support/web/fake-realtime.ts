import { vi } from 'vitest';
import type { Chat, MessengerUser } from '../../src/shared/models.js';
import type { LiveStatus } from '../../src/web/lib/live-status.js';
import type {
  ActivityHandlers,
  ChannelEvents,
  ConnectRealtime,
  RealtimeConnection,
} from '../../src/web/lib/realtime-connection.js';

/**
 * A live connection the test drives: `emit` a ChatMessage, `reconnect` after a drop. An event
 * carries the conversation as the viewer sees it: given to `emit`, or else from `viewOf` (the fake
 * server's record after the message).
 */
export const createFakeRealtime = (viewOf?: (chat: Chat) => MessengerUser | undefined) => {
  const chatHandlers = new Set<(event: ChannelEvents['ChatMessage']) => void>();
  const subscribedHandlers = new Set<() => void>();
  const activityHandlers = new Set<ActivityHandlers>();
  const statusHandlers = new Set<(status: LiveStatus) => void>();
  const listenedUserIds: number[] = [];
  let status: LiveStatus = 'connected';
  const connection: RealtimeConnection = {
    socketId: () => '1234.5678',
    listenForChatMessages: (userId, handler, onSubscribed) => {
      listenedUserIds.push(userId);
      chatHandlers.add(handler);
      if (onSubscribed) subscribedHandlers.add(onSubscribed);
      return () => {
        chatHandlers.delete(handler);
        if (onSubscribed) subscribedHandlers.delete(onSubscribed);
      };
    },
    listenForActivity: (_userId, handlers) => {
      activityHandlers.add(handlers);
      return () => activityHandlers.delete(handlers);
    },
    status: () => status,
    onStatusChange: (handler) => {
      statusHandlers.add(handler);
      return () => statusHandlers.delete(handler);
    },
    disconnect: vi.fn(),
  };
  const setStatus = (next: LiveStatus) => {
    status = next;
    statusHandlers.forEach((handler) => handler(next));
  };
  const connect: ConnectRealtime = vi.fn(async () => connection);
  return {
    connect,
    connection,
    listenedUserIds,
    get listening() {
      return chatHandlers.size > 0;
    },
    emit: (chat: Chat, messengerUser?: MessengerUser) => {
      const view = messengerUser ?? viewOf?.(chat);
      if (!view) throw new Error(`no conversation ${chat.messenger_user_id} for the event`);
      const event: ChannelEvents['ChatMessage'] = { chatMessage: chat, messengerUser: view };
      chatHandlers.forEach((handler) => handler(event));
    },
    emitPresence: (event: ChannelEvents['PresenceChanged']) =>
      activityHandlers.forEach((handlers) => handlers.presence(event)),
    emitSeen: (event: ChannelEvents['MessagesSeen']) =>
      activityHandlers.forEach((handlers) => handlers.seen(event)),
    emitTyping: (event: ChannelEvents['Typing']) =>
      activityHandlers.forEach((handlers) => handlers.typing(event)),
    /** `MessageUpdated`: a message edited or deleted (see the fake server's `editedByOther`). */
    emitUpdated: (event: ChannelEvents['MessageUpdated']) =>
      activityHandlers.forEach((handlers) => handlers.updated(event)),
    /** Down long enough to be said (live-status.ts): the page says it is reconnecting. */
    drop: () => setStatus('reconnecting'),
    /** Back after a drop: the page hears "connected", then its channel is subscribed anew. */
    reconnect: () => {
      setStatus('connected');
      subscribedHandlers.forEach((handler) => handler());
    },
  };
};

export type FakeRealtime = ReturnType<typeof createFakeRealtime>;
