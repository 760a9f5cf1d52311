import type { ZodType } from 'zod';
import type { MessengerConfig } from '../../shared/messenger-config.js';
import { csrfHeaders } from './csrf.js';
import { authorizeWithRetries, type ChannelAuthData } from './channel-authorization.js';
import { createLiveStatusTracker, type LiveStatus } from './live-status.js';
import type { RealtimeConnection } from './realtime-connection.js';

type Broadcaster = MessengerConfig['broadcaster'];

/** A channel's listener: what `schema` accepts goes to `handler`; with a `name`, the rest is logged. */
const parsingListener =
  <T>(schema: ZodType<T>, handler: (event: T) => void, name?: string) =>
  (payload: unknown) => {
    const parsed = schema.safeParse(payload);
    if (parsed.success) handler(parsed.data);
    else if (name) console.error(`Ignoring a malformed ${name} event`, parsed.error);
  };

/** The part of the pusher-js client used here (laravel-echo's typings leave it unresolved). */
interface PusherConnectionLike {
  state: string;
  bind(
    event: 'state_change',
    callback: (states: { previous: string; current: string }) => void,
  ): void;
  unbind(
    event: 'state_change',
    callback: (states: { previous: string; current: string }) => void,
  ): void;
}

/**
 * Connects laravel-echo + pusher-js (loaded on demand, so they stay out of the initial bundle)
 * and listens on `private-chat.{userId}` for `App\Events\ChatMessage`.
 */
export const connectEcho = async (broadcaster: Broadcaster): Promise<RealtimeConnection> => {
  const [
    { default: Echo },
    { default: Pusher },
    {
      chatMessageEventSchema,
      EVENT_NAMESPACE,
      messagesSeenEventSchema,
      messageUpdatedEventSchema,
      presenceChangedEventSchema,
      typingEventSchema,
    },
  ] = await Promise.all([
    import('laravel-echo'),
    import('pusher-js'),
    import('../../shared/events.js'),
  ]);

  const echo = new Echo({
    broadcaster: 'pusher',
    Pusher,
    key: broadcaster.key,
    cluster: broadcaster.cluster,
    wsHost: broadcaster.wsHost,
    wsPort: broadcaster.wsPort,
    wssPort: broadcaster.wssPort,
    forceTLS: broadcaster.forceTLS,
    enabledTransports: ['ws', 'wss'],
    disableStats: true,
    authEndpoint: broadcaster.authEndpoint,
    namespace: EVENT_NAMESPACE,
    withoutInterceptors: true,
    channelAuthorization: {
      endpoint: broadcaster.authEndpoint,
      transport: 'ajax',
      // as pusher-js's own ajax transport asks, but trying again after a 5xx or no answer
      customHandler: (
        { socketId, channelName }: { socketId: string; channelName: string },
        callback: (error: Error | null, data: ChannelAuthData | null) => void,
      ) => {
        authorizeWithRetries(
          () =>
            fetch(broadcaster.authEndpoint, {
              method: 'POST',
              credentials: 'same-origin',
              headers: {
                Accept: 'application/json',
                'Content-Type': 'application/x-www-form-urlencoded',
                ...csrfHeaders(),
              },
              body: new URLSearchParams({ socket_id: socketId, channel_name: channelName }),
            }),
          { stillWanted: () => echo.socketId() === socketId },
        ).then(
          (data) => callback(null, data),
          (error: unknown) =>
            callback(error instanceof Error ? error : new Error(String(error)), null),
        );
      },
    },
  });

  const pusher = (
    echo.connector as unknown as {
      pusher: { connection: PusherConnectionLike; connect(): void; disconnect(): void };
    }
  ).pusher;
  const connection = pusher.connection;
  const statusHandlers = new Set<(status: LiveStatus) => void>();
  const tracker = createLiveStatusTracker({
    retryNow: () => {
      pusher.disconnect();
      pusher.connect();
    },
    dropNow: () => pusher.disconnect(),
    isOnline: () => navigator.onLine !== false,
    onStatus: (status) => statusHandlers.forEach((handler) => handler(status)),
  });
  const onStateChange = (states: { current: string }) => tracker.onState(states.current);
  connection.bind('state_change', onStateChange);
  tracker.onState(connection.state);
  const nudge = () => {
    if (document.visibilityState === 'visible') tracker.nudge();
  };
  // pusher-js answers "offline" with a ping that it sends a tick later: the socket closes after it
  const goneOffline = () => setTimeout(() => tracker.offline(), 0);
  window.addEventListener('online', nudge);
  window.addEventListener('offline', goneOffline);
  document.addEventListener('visibilitychange', nudge);

  return {
    socketId: () => echo.socketId() || undefined,
    listenForChatMessages(userId, handler, onSubscribed) {
      const channelName = `chat.${userId}`;
      const channel = echo.private(channelName);
      const listener = parsingListener(chatMessageEventSchema, handler, 'ChatMessage');
      channel.listen('ChatMessage', listener);
      // pusher-js confirms again after each reconnection, once the channel is subscribed anew.
      // (Echo keeps the callback on the channel object, reused by a later listen: it stays quiet
      // once this listener has stopped.)
      let active = true;
      if (onSubscribed) channel.subscribed(() => active && onSubscribed());
      return () => {
        active = false;
        channel.stopListening('ChatMessage', listener);
        echo.leave(channelName);
      };
    },
    listenForActivity(userId, handlers) {
      // the same channel object as the ChatMessage listener's (Echo keeps one per name)
      const channel = echo.private(`chat.${userId}`);
      const listeners: [string, (payload: unknown) => void][] = [
        ['PresenceChanged', parsingListener(presenceChangedEventSchema, handlers.presence)],
        ['MessagesSeen', parsingListener(messagesSeenEventSchema, handlers.seen)],
        ['Typing', parsingListener(typingEventSchema, handlers.typing)],
        [
          'MessageUpdated',
          parsingListener(messageUpdatedEventSchema, handlers.updated, 'MessageUpdated'),
        ],
      ];
      for (const [event, listener] of listeners) channel.listen(event, listener);
      return () => {
        for (const [event, listener] of listeners) channel.stopListening(event, listener);
      };
    },
    status: () => tracker.status(),
    onStatusChange(handler) {
      statusHandlers.add(handler);
      return () => statusHandlers.delete(handler);
    },
    disconnect() {
      tracker.stop();
      window.removeEventListener('online', nudge);
      window.removeEventListener('offline', goneOffline);
      document.removeEventListener('visibilitychange', nudge);
      connection.unbind('state_change', onStateChange);
      statusHandlers.clear();
      echo.disconnect();
    },
  };
};
