import type { MessengerConfig } from '../../shared/api.js';
import { csrfHeaders } from './csrf.js';
import type { RealtimeConnection } from './realtime.js';

type Broadcaster = MessengerConfig['broadcaster'];

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

/** pusher-js connection states that mean the socket is (or was) gone. */
const DROPPED_STATES: ReadonlySet<string> = new Set([
  'unavailable',
  'disconnected',
  'connecting',
  'failed',
]);

/**
 * Tracks pusher connection states and reports "connected again after a drop".
 * Exported for tests; the first "connected" is not a reconnect.
 */
export const createReconnectDetector = (onReconnected: () => void) => {
  let everConnected = false;
  let dropped = false;
  return (current: string) => {
    if (current === 'connected') {
      if (everConnected && dropped) onReconnected();
      everConnected = true;
      dropped = false;
    } else if (everConnected && DROPPED_STATES.has(current)) {
      dropped = true;
    }
  };
};

/**
 * Connects laravel-echo + pusher-js (loaded on demand, so they stay out of the initial bundle)
 * and listens on `private-chat.{userId}` for `App\Events\ChatMessage`.
 */
export const connectEcho = async (broadcaster: Broadcaster): Promise<RealtimeConnection> => {
  const [{ default: Echo }, { default: Pusher }, { chatMessageEventSchema, EVENT_NAMESPACE }] =
    await Promise.all([
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
      headersProvider: () => ({ Accept: 'application/json', ...csrfHeaders() }),
    },
  });

  const connection = (echo.connector as unknown as { pusher: { connection: PusherConnectionLike } })
    .pusher.connection;
  const reconnectHandlers = new Set<() => void>();
  const detect = createReconnectDetector(() => reconnectHandlers.forEach((handler) => handler()));
  const onStateChange = (states: { current: string }) => detect(states.current);
  connection.bind('state_change', onStateChange);
  detect(connection.state);

  return {
    socketId: () => echo.socketId() || undefined,
    listenForChatMessages(userId, handler, onSubscribed) {
      const channelName = `chat.${userId}`;
      const channel = echo.private(channelName);
      const listener = (payload: unknown) => {
        const parsed = chatMessageEventSchema.safeParse(payload);
        if (parsed.success) handler(parsed.data.chatMessage);
        else console.error('Ignoring a malformed ChatMessage event', parsed.error);
      };
      channel.listen('ChatMessage', listener);
      let confirmed = false;
      channel.subscribed(() => {
        if (confirmed) return;
        confirmed = true;
        onSubscribed?.();
      });
      return () => {
        channel.stopListening('ChatMessage', listener);
        echo.leave(channelName);
      };
    },
    onReconnected(handler) {
      reconnectHandlers.add(handler);
      return () => reconnectHandlers.delete(handler);
    },
    disconnect() {
      connection.unbind('state_change', onStateChange);
      reconnectHandlers.clear();
      echo.disconnect();
    },
  };
};
