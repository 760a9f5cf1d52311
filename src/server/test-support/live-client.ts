import PusherModule from 'pusher-js';
import type { Channel } from 'pusher-js';
import {
  CHAT_MESSAGE_EVENT,
  chatMessageEventSchema,
  userChannelName,
} from '../../shared/events.js';
import type { Chat } from '../../shared/models.js';
import type { HttpSession } from './http-client.js';

// pusher-js is CommonJS: Node's ESM default import is the class, its typings a namespace with `default`.
type PusherClass = (typeof PusherModule)['default'];
const Pusher: PusherClass =
  (PusherModule as unknown as { default?: PusherClass }).default ??
  (PusherModule as unknown as PusherClass);

export type PusherClient = InstanceType<typeof Pusher>;

export interface LiveClient {
  pusher: PusherClient;
  channel: Channel;
  /** Every ChatMessage received, in arrival order. */
  received: Chat[];
  socketId: () => string;
  /** Resolves once `count` messages have arrived (rejects after `ms`). */
  waitFor: (count: number, ms?: number) => Promise<Chat[]>;
  disconnect: () => void;
}

export const waitUntil = async (
  check: () => boolean,
  label: string,
  ms = 10_000,
): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

/**
 * A stock pusher-js client of a running server, subscribed to the signed-in user's own channel the way the
 * page does it: channel authorization through POST /broadcasting/auth with the session cookie and CSRF header.
 */
export const connectLiveClient = async (
  baseUrl: string,
  session: HttpSession,
  options: { pusherKey?: string; channel?: string } = {},
): Promise<LiveClient> => {
  const { port, hostname } = new URL(baseUrl);
  const pusher = new Pusher(options.pusherKey ?? 'local-pusher-key', {
    cluster: 'mt1',
    wsHost: hostname,
    wsPort: Number(port),
    forceTLS: false,
    enabledTransports: ['ws'],
    channelAuthorization: {
      customHandler: ({ socketId, channelName }, callback) => {
        fetch(`${baseUrl}/broadcasting/auth`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            cookie: session.cookie,
            'x-xsrf-token': session.csrf,
          },
          body: JSON.stringify({ socket_id: socketId, channel_name: channelName }),
        })
          .then(async (response) => {
            if (!response.ok) throw new Error(`auth ${response.status}`);
            callback(null, (await response.json()) as { auth: string });
          })
          .catch((error: unknown) =>
            callback(error instanceof Error ? error : new Error(String(error)), null),
          );
      },
    },
  });
  const channel = pusher.subscribe(options.channel ?? userChannelName(session.userId));
  const received: Chat[] = [];
  channel.bind(CHAT_MESSAGE_EVENT, (data: unknown) =>
    received.push(chatMessageEventSchema.parse(data).chatMessage),
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('subscription timed out')), 10_000);
    channel.bind('pusher:subscription_succeeded', () => (clearTimeout(timer), resolve()));
    channel.bind('pusher:subscription_error', (error: unknown) => {
      clearTimeout(timer);
      reject(new Error(`subscription refused: ${JSON.stringify(error)}`));
    });
  });
  return {
    pusher,
    channel,
    received,
    socketId: () => pusher.connection.socket_id,
    waitFor: async (count, ms = 10_000) => {
      await waitUntil(() => received.length >= count, `${count} ChatMessage events`, ms);
      return received;
    },
    disconnect: () => pusher.disconnect(),
  };
};
