/**
 * Test helpers for the realtime tests (not used by the app): a realtime instance on a real port,
 * a raw `ws` client with a message queue, and stock pusher-js clients.
 */
import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import PusherModule from 'pusher-js';
import type { Channel, Options as PusherJsOptions } from 'pusher-js';
import WebSocket from 'ws';
import { loadConfig } from '../config.js';
import { createRealtime } from './create-realtime.js';
import type { Realtime, RealtimeOptions } from './types.js';

/**
 * pusher-js is CommonJS (`module.exports = Pusher`): Node's ESM default import is the class, while
 * its typings describe a namespace with `default`. Accept both shapes.
 */
type PusherClass = (typeof PusherModule)['default'];
const Pusher: PusherClass =
  (PusherModule as unknown as { default?: PusherClass }).default ??
  (PusherModule as unknown as PusherClass);

export const TEST_REDIS_URL = loadConfig().test.redisUrl;
export const TEST_ORIGIN = 'http://app.test';

/** Rejects after `ms` (generous: these are failure guards, not timing assertions). */
export const within = <T>(promise: Promise<T>, label: string, ms = 10_000): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Timed out waiting for ${label}`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });

/** Polls a condition until it holds (for state that has no event to wait on). */
export const until = async (
  condition: () => boolean,
  label: string,
  ms = 10_000,
): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${label}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

export const credentials = () => ({
  appId: `app-${randomBytes(4).toString('hex')}`,
  key: `key-${randomBytes(6).toString('hex')}`,
  secret: randomBytes(16).toString('hex'),
});

export interface Instance {
  app: FastifyInstance;
  realtime: Realtime;
  options: RealtimeOptions;
  port: number;
  socketUrl: (key?: string) => string;
  close: () => Promise<void>;
}

/** A Fastify server with the trigger routes and the websocket endpoint, listening on 127.0.0.1. */
export const startInstance = async (
  overrides: Partial<RealtimeOptions> & { port?: number } = {},
): Promise<Instance> => {
  const { port: wantedPort, ...rest } = overrides;
  const options: RealtimeOptions = {
    ...credentials(),
    allowedOrigins: [TEST_ORIGIN],
    activityTimeoutSeconds: 30,
    pongTimeoutSeconds: 30,
    ...rest,
  };
  const realtime = createRealtime(options);
  const app = Fastify({ logger: false });
  await app.register(realtime.triggerRoutes);
  realtime.attach(app.server);
  await app.listen({ port: wantedPort ?? 0, host: '127.0.0.1' });
  await realtime.ready();
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const port = address.port;
  let closed = false;
  return {
    app,
    realtime,
    options,
    port,
    socketUrl: (key = options.key) =>
      `ws://127.0.0.1:${port}/app/${key}?protocol=7&client=js&version=8.6.0`,
    close: async () => {
      if (closed) return;
      closed = true;
      await realtime.close();
      await app.close();
    },
  };
};

export interface Frame {
  event: string;
  channel?: string;
  data?: unknown;
}

/** A raw websocket client that queues every frame it receives. */
export class RawClient {
  readonly frames: Frame[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: { predicate: (frame: Frame) => boolean; resolve: (frame: Frame) => void }[] = [];
  private cursor = 0;

  private constructor(readonly ws: WebSocket) {
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    });
    ws.on('error', () => undefined);
    ws.on('message', (raw) => {
      const frame = JSON.parse((raw as Buffer).toString('utf8')) as Frame;
      this.frames.push(frame);
      this.waiters = this.waiters.filter((waiter) => {
        if (!waiter.predicate(frame)) return true;
        waiter.resolve(frame);
        return false;
      });
    });
  }

  /** Opens a socket; resolves once the upgrade succeeded. */
  static async connect(url: string, options: WebSocket.ClientOptions = {}): Promise<RawClient> {
    const ws = new WebSocket(url, options);
    const client = new RawClient(ws);
    await within(
      new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
      }),
      'websocket open',
    );
    return client;
  }

  /** Connects and waits for `pusher:connection_established`; returns the client and its socket id. */
  static async established(
    url: string,
    options: WebSocket.ClientOptions = {},
  ): Promise<{ client: RawClient; socketId: string }> {
    const client = await RawClient.connect(url, options);
    const frame = await client.next((f) => f.event === 'pusher:connection_established');
    const data = JSON.parse(frame.data as string) as {
      socket_id: string;
      activity_timeout: number;
    };
    return { client, socketId: data.socket_id };
  }

  /** The first frame (received so far or later) matching the predicate that was not consumed yet. */
  next(predicate: (frame: Frame) => boolean, label = 'a frame', ms = 10_000): Promise<Frame> {
    for (let i = this.cursor; i < this.frames.length; i++) {
      const frame = this.frames[i]!;
      if (predicate(frame)) {
        this.cursor = i + 1;
        return Promise.resolve(frame);
      }
    }
    return within(
      new Promise<Frame>((resolve) => {
        this.waiters.push({
          predicate,
          resolve: (frame) => {
            this.cursor = this.frames.length;
            resolve(frame);
          },
        });
      }),
      label,
      ms,
    );
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** Subscribes and waits for the answer (success or error). */
  async subscribe(channel: string, auth?: string, channelData?: string): Promise<Frame> {
    this.send({
      event: 'pusher:subscribe',
      data: {
        channel,
        ...(auth === undefined ? {} : { auth }),
        ...(channelData === undefined ? {} : { channel_data: channelData }),
      },
    });
    return this.next(
      (f) =>
        f.channel === channel &&
        (f.event === 'pusher_internal:subscription_succeeded' ||
          f.event === 'pusher:subscription_error'),
      `subscription answer for ${channel}`,
    );
  }

  eventsOn(channel: string): Frame[] {
    return this.frames.filter((f) => f.channel === channel && !f.event.startsWith('pusher'));
  }

  async close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return;
    this.ws.close();
    await within(this.closed, 'raw client close').catch(() => this.ws.terminate());
  }
}

export type PusherJs = InstanceType<typeof Pusher>;

/** A stock pusher-js client against an instance; channel authorization through `authorize`. */
export const pusherJsClient = (
  instance: Instance,
  authorize: (socketId: string, channel: string) => { auth: string; channel_data?: string },
  extra: Partial<PusherJsOptions> = {},
): PusherJs =>
  new Pusher(instance.options.key, {
    cluster: 'mt1',
    wsHost: '127.0.0.1',
    wsPort: instance.port,
    forceTLS: false,
    enabledTransports: ['ws'],
    channelAuthorization: {
      customHandler: ({ socketId, channelName }, callback) => {
        try {
          callback(null, authorize(socketId, channelName));
        } catch (error) {
          callback(error instanceof Error ? error : new Error(String(error)), null);
        }
      },
    },
    ...extra,
  });

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
        reject(new Error(`subscription error: ${JSON.stringify(error)}`));
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

export const disconnectPusher = async (pusher: PusherJs): Promise<void> => {
  pusher.disconnect();
  await until(
    () => pusher.connection.state === 'disconnected' || pusher.connection.state === 'failed',
    'pusher-js disconnected',
  ).catch(() => undefined);
};
