import PusherModule from 'pusher-js';
import type { Channel, Options as PusherJsOptions } from 'pusher-js';
import {
  CHAT_MESSAGE_EVENT,
  chatMessageEventSchema,
  userChannelName,
  type ChatMessageEvent,
} from '../src/shared/events.js';
import type { Chat } from '../src/shared/models.js';
import { authorizeWithRetries } from '../src/web/lib/channel-authorization.js';
import { authorizeOverHttp, type HttpSession } from './http-session.js';
import { until, within } from './wait.js';

/**
 * Stock pusher-js clients, the library the page uses, against the embedded endpoint or a server
 * process.
 *
 * pusher-js is CommonJS (`module.exports = Pusher`): Node's ESM default import is the class, while
 * its typings describe a namespace with `default`. Accept both shapes (here, and only here).
 */
type PusherClass = (typeof PusherModule)['default'];
export const Pusher: PusherClass =
  (PusherModule as unknown as { default?: PusherClass }).default ??
  (PusherModule as unknown as PusherClass);
export type PusherJs = InstanceType<PusherClass>;

export interface ChannelAuth {
  auth: string;
  channel_data?: string;
}

/** Signs a channel for a socket, at once or after a round trip. */
export type Authorizer = (
  socketId: string,
  channelName: string,
) => ChannelAuth | Promise<ChannelAuth>;

/** Where the live endpoint listens (127.0.0.1 unless told) and the key it answers to. */
export interface PusherTarget {
  port: number;
  key: string;
  host?: string;
}

/** A stock pusher-js client; channel authorization through `authorize`. */
export const pusherJsClient = (
  target: PusherTarget,
  authorize: Authorizer,
  extra: Partial<PusherJsOptions> = {},
): PusherJs =>
  new Pusher(target.key, {
    cluster: 'mt1',
    wsHost: target.host ?? '127.0.0.1',
    wsPort: target.port,
    forceTLS: false,
    enabledTransports: ['ws'],
    channelAuthorization: {
      customHandler: ({ socketId, channelName }, callback) => {
        const fail = (error: unknown) =>
          callback(error instanceof Error ? error : new Error(String(error)), null);
        try {
          const answer = authorize(socketId, channelName);
          if (answer instanceof Promise) answer.then((auth) => callback(null, auth), fail);
          else callback(null, answer);
        } catch (error) {
          fail(error);
        }
      },
    },
    ...extra,
  });

/**
 * Channel authorization as the page does it: POST /broadcasting/auth with the session cookie and
 * the CSRF header. A refusal fails with the status on the error. `before` runs first (race tests).
 */
export const authorizeThroughServer =
  (
    baseUrl: string,
    session: Pick<HttpSession, 'cookie' | 'csrf'>,
    options: { before?: () => Promise<void> } = {},
  ): Authorizer =>
  async (socketId, channelName) => {
    await options.before?.();
    // as the page does: a 5xx or no answer (a proxy during a restart) is asked again
    return authorizeWithRetries(() =>
      authorizeOverHttp(baseUrl, session, socketId, channelName),
    ) as Promise<ChannelAuth>;
  };

/** Resolves with the socket id once the client is connected. */
export const connected = (pusher: PusherJs, label = 'pusher-js connected'): Promise<string> =>
  within(
    new Promise<string>((resolve) => {
      if (pusher.connection.state === 'connected') return resolve(pusher.connection.socket_id);
      const onChange = ({ current }: { current: string }) => {
        if (current !== 'connected') return;
        pusher.connection.unbind('state_change', onChange);
        resolve(pusher.connection.socket_id);
      };
      pusher.connection.bind('state_change', onChange);
    }),
    label,
  );

/** The next subscription answer of a channel: its data, or a rejection "subscription refused". */
export const subscribed = (
  channel: Channel,
  label = `subscribed to ${channel.name}`,
  ms = 10_000,
): Promise<unknown> =>
  within(
    new Promise((resolve, reject) => {
      const onSuccess = (data: unknown) => {
        channel.unbind('pusher:subscription_succeeded', onSuccess);
        channel.unbind('pusher:subscription_error', onError);
        resolve(data);
      };
      const onError = (error: unknown) => {
        channel.unbind('pusher:subscription_succeeded', onSuccess);
        channel.unbind('pusher:subscription_error', onError);
        reject(new Error(`subscription refused: ${JSON.stringify(error)}`));
      };
      channel.bind('pusher:subscription_succeeded', onSuccess);
      channel.bind('pusher:subscription_error', onError);
    }),
    label,
    ms,
  );

export const nextEvent = <T = unknown>(
  channel: Channel,
  event: string,
  label = `${event} on ${channel.name}`,
): Promise<T> =>
  within(
    new Promise<T>((resolve) => {
      const handler = (data: T) => {
        channel.unbind(event, handler);
        resolve(data);
      };
      channel.bind(event, handler);
    }),
    label,
  );

export const disconnectPusher = async (pusher: PusherJs, ms = 10_000): Promise<void> => {
  pusher.disconnect();
  await until(
    () => pusher.connection.state === 'disconnected' || pusher.connection.state === 'failed',
    'pusher-js disconnected',
    ms,
  ).catch(() => undefined);
};

/**
 * Tells every pusher-js client of this process that the network is back, as a browser's `online`
 * event does (pusher-js then retries at once instead of waiting out its back-off). Node has no such
 * signal of its own.
 */
export const networkBackOnline = (): void => {
  Pusher.Runtime.getNetwork().emit('online', undefined);
};

/** A pusher-js client of a running server, subscribed to one channel and keeping its ChatMessages. */
export interface ChatListener {
  pusher: PusherJs;
  channel: Channel;
  /** Every ChatMessage received, in arrival order. */
  received: Chat[];
  /** The same events whole: each with `messengerUser`, the conversation as this channel's owner sees it. */
  events: ChatMessageEvent[];
  socketId: () => string;
  /** Resolves once `count` messages have arrived (rejects after `ms`). */
  waitFor: (count: number, ms?: number) => Promise<Chat[]>;
  disconnect: () => void;
}

/**
 * Subscribes the signed-in user's own channel (or `channel`) the way the page does; resolves once
 * the subscription succeeded (rejects "subscription refused" otherwise).
 */
export const listenForChats = async (
  baseUrl: string,
  session: HttpSession,
  options: { pusherKey?: string; channel?: string } = {},
): Promise<ChatListener> => {
  const { port, hostname } = new URL(baseUrl);
  const pusher = pusherJsClient(
    { host: hostname, port: Number(port), key: options.pusherKey ?? 'local-pusher-key' },
    authorizeThroughServer(baseUrl, session),
  );
  const channel = pusher.subscribe(options.channel ?? userChannelName(session.userId));
  const received: Chat[] = [];
  const events: ChatMessageEvent[] = [];
  channel.bind(CHAT_MESSAGE_EVENT, (data: unknown) => {
    const event = chatMessageEventSchema.parse(data);
    events.push(event);
    received.push(event.chatMessage);
  });
  await subscribed(channel, `subscribed to ${channel.name}`).catch((error: unknown) => {
    pusher.disconnect();
    throw error;
  });
  return {
    pusher,
    channel,
    received,
    events,
    socketId: () => pusher.connection.socket_id,
    waitFor: async (count, ms = 10_000) => {
      await until(() => received.length >= count, `${count} ChatMessage events`, ms);
      return received;
    },
    disconnect: () => pusher.disconnect(),
  };
};

/** Every event a user's own channel received, by name, in arrival order. */
export interface EventListener {
  pusher: PusherJs;
  events: { name: string; data: unknown }[];
  /** The data of the events called `name`. */
  named: <T = unknown>(name: string) => T[];
  /** Resolves once `count` events called `name` have arrived (rejects after `ms`). */
  waitFor: <T = unknown>(name: string, count: number, ms?: number) => Promise<T[]>;
  disconnect: () => void;
}

/** Subscribes the signed-in user's own channel as the page does and keeps every event on it. */
export const listenForEvents = async (
  baseUrl: string,
  session: HttpSession,
  options: {
    pusherKey?: string;
    /** the socket's server when it is not `baseUrl` (a hosted Pusher) */ wsUrl?: string;
  } = {},
): Promise<EventListener> => {
  const { port, hostname } = new URL(options.wsUrl ?? baseUrl);
  const pusher = pusherJsClient(
    { host: hostname, port: Number(port), key: options.pusherKey ?? 'local-pusher-key' },
    authorizeThroughServer(baseUrl, session),
  );
  const channel = pusher.subscribe(userChannelName(session.userId));
  const events: { name: string; data: unknown }[] = [];
  channel.bind_global((name: string, data: unknown) => {
    if (!name.startsWith('pusher:') && !name.startsWith('pusher_internal:'))
      events.push({ name, data });
  });
  await subscribed(channel, `subscribed to ${channel.name}`).catch((error: unknown) => {
    pusher.disconnect();
    throw error;
  });
  const named = <T>(name: string) =>
    events.filter((event) => event.name === name).map((event) => event.data as T);
  return {
    pusher,
    events,
    named,
    waitFor: async <T>(name: string, count: number, ms = 10_000) => {
      await until(() => named(name).length >= count, `${count} ${name} events`, ms);
      return named<T>(name);
    },
    disconnect: () => pusher.disconnect(),
  };
};
