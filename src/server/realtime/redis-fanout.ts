import { jsonOrUndefined } from '../lib/json.js';
import type { Cluster, Redis } from 'ioredis';
import { redisForPubSub } from '../lib/redis.js';
import { z } from 'zod';
import { ShardedChannelRoutes } from './channel-routes.js';
import type { FanoutRouting, RealtimeLogger } from './types.js';

/** What instances tell each other over Redis pub/sub. */
export const fanoutMessageSchema = z.discriminatedUnion('t', [
  z.object({
    t: z.literal('event'),
    channels: z.array(z.string()),
    event: z.string(),
    /** Already serialized event data (delivered as is). */
    data: z.string(),
    except: z.string().optional(),
  }),
  /** Close the sockets of a session (logout) wherever they are. */
  z.object({ t: z.literal('close-session'), sessionKey: z.string() }),
  /** A socket was authorized through another instance: the instance that holds it records the session. */
  z.object({ t: z.literal('bind'), socketId: z.string(), sessionKey: z.string() }),
  /**
   * An instance could not publish some events while its Redis connection was down (the messages
   * are stored): every instance makes its sockets reconnect, so that every page catches up.
   */
  z.object({ t: z.literal('resync') }),
]);
export type FanoutMessage = z.infer<typeof fanoutMessageSchema>;

export interface RedisFanoutOptions {
  url: string;
  /**
   * Pub/sub channel name shared by every instance of one deployment: the control messages, and
   * every event with `broadcast` routing. With `per-user` routing a Pusher channel's events go to
   * the shard channel `{channel}:{pusher channel}`.
   */
  channel: string;
  /** Default `per-user`. */
  routing?: FanoutRouting;
  onMessage: (message: FanoutMessage) => void;
  logger?: RealtimeLogger | undefined;
  /** How long a publish waits for a (re)connecting publisher before it fails. Default 1000 ms. */
  publishWaitMs?: number;
  /**
   * Called once the subscription is active again after the subscriber lost its connection: events
   * published in between never reached this instance, so its sockets have to catch up.
   */
  onResubscribed?: () => void;
}

/**
 * Redis pub/sub fan-out with three connections: a publisher that fails fast when Redis is down (no
 * offline queue, no retried publishes, so nothing is delivered twice), and two subscribers (the
 * shared channel, the shard channels) that reconnect and re-subscribe by themselves (ioredis).
 * Every instance, the publisher's included, delivers from its subscriptions, so one publish reaches
 * each socket once. With `per-user` routing an event is published once per Pusher channel, with `SPUBLISH` to
 * that channel's shard channel, which only the instances holding a socket on it subscribe to: on
 * Redis Cluster each shard channel lives on the node that owns its slot.
 */
export class RedisFanout {
  private readonly publisher: Redis | Cluster;
  /** The shared channel: control messages, and every event with `broadcast` routing. */
  private readonly subscriber: Redis | Cluster;
  /**
   * The user channels' shard channels, on a connection of their own: Redis counts shard channels
   * apart, and ioredis leaves subscriber mode when a `SUNSUBSCRIBE` answers a count of 0, which on
   * a shared connection would drop the shared channel's messages from then on.
   */
  private readonly shardSubscriber: Redis | Cluster;
  private readonly routing: FanoutRouting;
  private readonly channel: string;
  private readonly publishWaitMs: number;
  /** Some event failed to publish since the last announcement (see `resync`). */
  private missedEvents = false;
  private readonly subscribed: Promise<void>;
  private closed = false;
  /**
   * Set while a subscriber connection is away or being re-subscribed: nothing is delivered then,
   * so that no socket from before the outage hears anything until onResubscribed has made it
   * reconnect (and authorize again: a session that ended meanwhile is refused).
   */
  private resyncing = false;
  /**
   * The shard channels this instance subscribes to: the channels it holds sockets on. Kept with
   * either routing, so that during a switch from `broadcast` to `per-user` (a rolling restart) an
   * instance of either kind hears what the other publishes.
   */
  readonly routes: ShardedChannelRoutes;
  /** Event messages received from Redis (delivered to this instance's sockets or dropped). */
  receivedEvents = 0;
  /** Whether Redis has sharded pub/sub (7 or later); undefined until its version is known. */
  private shardedPubSub: boolean | undefined;

  constructor(private readonly options: RedisFanoutOptions) {
    this.channel = options.channel;
    this.routing = options.routing ?? 'per-user';
    this.publishWaitMs = options.publishWaitMs ?? 1_000;
    const name = options.channel.replace(/[^A-Za-z0-9_.:-]/g, '_').slice(0, 100);
    this.publisher = redisForPubSub(options.url, {
      connectionName: `realtime-pub:${name}`,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
    });
    const subscriberOptions = { enableOfflineQueue: true, maxRetriesPerRequest: null };
    this.subscriber = redisForPubSub(options.url, {
      ...subscriberOptions,
      connectionName: `realtime-sub:${name}`,
    });
    this.shardSubscriber = redisForPubSub(options.url, {
      ...subscriberOptions,
      connectionName: `realtime-shard:${name}`,
    });
    const shardSubscriber = this.shardSubscriber;
    this.routes = new ShardedChannelRoutes(
      {
        // On a Redis without sharded pub/sub there is nothing to subscribe: events go broadcast.
        subscribe: async (channel) =>
          this.shardedPubSub === false
            ? undefined
            : shardSubscriber.ssubscribe(this.shardChannel(channel)),
        unsubscribe: async (channel) =>
          this.shardedPubSub === false
            ? undefined
            : shardSubscriber.sunsubscribe(this.shardChannel(channel)),
      },
      options.logger,
    );
    this.watch(this.publisher, 'publisher');
    this.publisher.on('ready', () => this.announceMissedEvents());
    this.publisher.once('ready', () => void this.checkShardedPubSub());
    this.watch(this.subscriber, 'subscriber');
    this.watch(this.shardSubscriber, 'shard subscriber');
    this.watchSubscriptions();
    this.subscriber.on('message', (channel: string, payload: string) => {
      if (channel === this.channel) this.receive(payload);
    });
    this.shardSubscriber.on('smessage', (_channel: string, payload: string) =>
      this.receive(payload),
    );
    this.subscribed = this.subscriber.subscribe(this.channel).then(() => undefined);
    // ready() reports it; keep an unobserved failure (closing before connecting) from being "unhandled".
    this.subscribed.catch(() => undefined);
  }

  /** Resolves once the publisher is connected and the subscription is active. */
  async ready(): Promise<void> {
    await Promise.all([this.waitForPublisher(60_000), this.subscribed]);
  }

  async publish(message: FanoutMessage): Promise<void> {
    try {
      await this.readyPublisher();
      if (message.t === 'event' && this.routing === 'per-user' && this.shardedPubSub !== false) {
        // One shard channel per Pusher channel: each reaches only the instances that hold it.
        await Promise.all(
          message.channels.map((channel) =>
            this.publisher.spublish(
              this.shardChannel(channel),
              JSON.stringify({ ...message, channels: [channel] }),
            ),
          ),
        );
      } else {
        await this.publisher.publish(this.channel, JSON.stringify(message));
      }
    } catch (error) {
      // An event that never went out: once Redis is back, every page has to catch up.
      if (message.t === 'event' && !this.closed) this.missedEvents = true;
      throw error;
    }
  }

  private async readyPublisher(): Promise<void> {
    if (this.closed) throw new Error('Realtime fan-out is closed.');
    if (this.publisher.status !== 'ready') await this.waitForPublisher(this.publishWaitMs);
  }

  /**
   * `SET key 1 PX ttlMs NX` on the publisher connection: true when the key was absent (and is now
   * set). Fails fast like `publish` when Redis is unreachable. Used to share the memory of trigger
   * signatures already seen between instances.
   */
  async setOnce(key: string, ttlMs: number): Promise<boolean> {
    await this.readyPublisher();
    const answer = await this.publisher.set(key, '1', 'PX', Math.max(1, Math.ceil(ttlMs)), 'NX');
    return answer === 'OK';
  }

  async forget(key: string): Promise<void> {
    await this.readyPublisher();
    await this.publisher.del(key);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.routes.stop();
    await Promise.all([quit(this.publisher), quit(this.subscriber), quit(this.shardSubscriber)]);
  }

  /**
   * Per-user routing needs Redis 7 (`SPUBLISH`/`SSUBSCRIBE`): on an older one events go to every
   * instance, as with `broadcast` routing, and the log says so.
   */
  private async checkShardedPubSub(): Promise<void> {
    try {
      const version = redisVersionOf(String(await this.publisher.info('server')));
      if (version === undefined) return;
      this.shardedPubSub = version.major >= 7;
      if (!this.shardedPubSub)
        this.options.logger?.warn(
          { redisVersion: version.text },
          `realtime: Redis ${version.text} has no sharded pub/sub: live events go to every instance (broadcast routing) until Redis is upgraded to 7`,
        );
    } catch {
      // unknown: the publishes themselves will say it
    }
  }

  private shardChannel(channel: string): string {
    return `${this.channel}:${channel}`;
  }

  private receive(payload: string): void {
    if (this.resyncing) return;
    const parsed = fanoutMessageSchema.safeParse(jsonOrUndefined(payload));
    if (!parsed.success) {
      this.options.logger?.warn(
        { channel: this.channel },
        'realtime: ignored a malformed fan-out message',
      );
      return;
    }
    if (parsed.data.t === 'event') this.receivedEvents += 1;
    try {
      this.options.onMessage(parsed.data);
    } catch (error) {
      this.options.logger?.warn({ err: error }, 'realtime: fan-out delivery failed');
    }
  }

  private waitForPublisher(timeoutMs: number): Promise<void> {
    if (this.publisher.status === 'ready') return Promise.resolve();
    if (this.closed || this.publisher.status === 'end') {
      return Promise.reject(new Error('Realtime fan-out is closed.'));
    }
    return new Promise<void>((resolve, reject) => {
      const onReady = () => {
        clearTimeout(timer);
        this.publisher.off('end', onEnd);
        resolve();
      };
      const onEnd = () => {
        clearTimeout(timer);
        this.publisher.off('ready', onReady);
        reject(new Error('Realtime fan-out is closed.'));
      };
      const timer = setTimeout(() => {
        this.publisher.off('ready', onReady);
        this.publisher.off('end', onEnd);
        const error = new Error(
          'Redis is unreachable: the live event was not published.',
        ) as Error & { code: string };
        error.code = 'ECONNREFUSED';
        reject(error);
      }, timeoutMs);
      timer.unref();
      this.publisher.once('ready', onReady);
      this.publisher.once('end', onEnd);
    });
  }

  /** After events failed to publish: tell every instance (this one included) to resync its sockets. */
  private announceMissedEvents(): void {
    if (!this.missedEvents || this.closed) return;
    this.missedEvents = false;
    this.publisher
      .publish(this.channel, JSON.stringify({ t: 'resync' }))
      .catch((error: unknown) => {
        this.missedEvents = true;
        this.options.logger?.warn({ err: error }, 'realtime: could not announce missed events');
      });
  }

  /**
   * Reports the subscriptions back after a subscriber connection was lost. ioredis re-subscribes
   * by itself on 'ready' (the shard channels included); a command sent here is answered after
   * those, so once it resolves the connection's subscriptions are active again. Once both
   * connections are, the sockets are made to reconnect and catch up.
   */
  private watchSubscriptions(): void {
    const lost = new Set<string>();
    const watchOne = (client: Redis | Cluster, role: string, confirm: () => Promise<unknown>) => {
      client.on('close', () => {
        if (this.closed) return;
        lost.add(role);
        this.resyncing = true;
      });
      client.on('ready', () => {
        if (!lost.has(role) || this.closed) return;
        confirm().then(
          () => {
            if (this.closed || !lost.delete(role) || lost.size > 0) return;
            this.options.onResubscribed?.();
            this.resyncing = false;
          },
          (error: unknown) =>
            this.options.logger?.warn(
              { err: error, role },
              'realtime: could not re-subscribe to the fan-out',
            ),
        );
      });
    };
    watchOne(this.subscriber, 'subscriber', () => this.subscriber.subscribe(this.channel));
    watchOne(this.shardSubscriber, 'shard subscriber', () => this.shardSubscriber.ping());
  }

  /** Logs a connection's trouble once per outage, and its recovery. */
  private watch(client: Redis | Cluster, role: string): void {
    let down = false;
    client.on('error', (error: Error) => {
      if (down || this.closed) return;
      down = true;
      this.options.logger?.warn(
        { err: error, role },
        'realtime: Redis connection lost; reconnecting',
      );
    });
    client.on('ready', () => {
      if (!down) return;
      down = false;
      this.options.logger?.info({ role }, 'realtime: Redis connection restored');
    });
  }
}

const quit = async (client: Redis | Cluster): Promise<void> => {
  if (client.status === 'ready') {
    try {
      await client.quit();
      return;
    } catch {
      // fall through to a hard disconnect
    }
  }
  client.disconnect();
};

/** `redis_version` of an `INFO server` answer. */
export const redisVersionOf = (info: string): { text: string; major: number } | undefined => {
  const text = /^redis_version:([0-9][^\r\n]*)/m.exec(info)?.[1]?.trim();
  return text === undefined ? undefined : { text, major: Number.parseInt(text, 10) };
};
