import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';

/**
 * Who a session or token belongs to, remembered for a short while so that a request does not read
 * the database to learn it (every call of the page is authenticated: on PostgreSQL that lookup was
 * one of a send's round trips).
 *
 * Correctness rests on invalidation, not on the lifetime: whatever ends or changes a credential or
 * its user (sign-out, a replaced session, a revoked token, erasure, a rename) calls `forgetUser`,
 * which forgets here at once and, with Redis, on every other instance. An instance that cannot hear
 * those messages (its subscription is down) caches nothing and forgets all it held, so a missed
 * message never keeps a credential alive. The lifetime bounds the rest (a message published while
 * Redis was unreachable from the sender only).
 */
export interface CredentialCache<V> {
  /** The remembered value, if still valid at `now` (ms). */
  get(key: string, now: number): V | undefined;
  /**
   * Remembers `value` until `validUntil` (ms; the credential's own expiry) or the cache's lifetime,
   * whichever comes first. `readSince` is `generation()` taken before the database was read: a value
   * read before an invalidation that came meanwhile is not kept.
   */
  set(key: string, userId: number, value: V, validUntil: number, readSince: number): void;
  /** The invalidation count, to be taken before a lookup (see `set`). */
  generation(): number;
  /** Forgets every credential of the user, here and (with Redis) on every instance. */
  forgetUser(userId: number): Promise<void>;
  close(): Promise<void>;
}

export interface CredentialCacheOptions {
  /** Longest a credential is remembered, ms. */
  lifetimeMs: number;
  /** Most entries kept (the oldest go first). */
  maxEntries: number;
  redisUrl?: string | undefined;
  /** Redis channel of the invalidations (namespaced per deployment by the caller). */
  channel: string;
  onError?: (error: unknown) => void;
}

interface Entry<V> {
  userId: number;
  value: V;
  expiresAt: number;
}

/** How often an invalidation Redis did not take is published again. */
const PUBLISH_RETRY_MS = 500;

interface Invalidation {
  userId: number;
  /** The instance that sent it (it has already forgotten). */
  from: string;
}

export const createCredentialCache = <V>(options: CredentialCacheOptions): CredentialCache<V> => {
  const entries = new Map<string, Entry<V>>();
  const instanceId = randomUUID();
  let invalidations = 0;
  /** Without Redis this instance is alone: it can always cache. With Redis, only while subscribed. */
  let listening = options.redisUrl === undefined;
  let closed = false;

  const forgetLocally = (userId: number) => {
    invalidations += 1;
    for (const [key, entry] of entries) if (entry.userId === userId) entries.delete(key);
  };
  const forgetAll = () => {
    invalidations += 1;
    entries.clear();
  };

  let publisher: Redis | undefined;
  let subscriber: Redis | undefined;
  /** Invalidations waiting to be published again. */
  const retries = new Set<NodeJS.Timeout>();
  /** True once Redis took the message; a failure is reported (when asked), not thrown. */
  const publish = async (text: string, report: boolean): Promise<boolean> => {
    try {
      await publisher?.publish(options.channel, text);
      return true;
    } catch (error) {
      if (report) options.onError?.(error);
      return false;
    }
  };
  if (options.redisUrl) {
    const redisOptions = { lazyConnect: false, maxRetriesPerRequest: 1, enableOfflineQueue: false };
    publisher = new Redis(options.redisUrl, redisOptions);
    subscriber = new Redis(options.redisUrl, { ...redisOptions, autoResubscribe: false });
    const report = (error: unknown) => options.onError?.(error);
    publisher.on('error', report);
    subscriber.on('error', report);
    const stopListening = () => {
      listening = false;
      forgetAll();
    };
    subscriber.on('close', stopListening);
    subscriber.on('end', stopListening);
    subscriber.on('ready', () => {
      // Listening again only once subscribed: what was published meanwhile was not heard, and
      // everything remembered before was already forgotten when the connection went.
      subscriber?.subscribe(options.channel).then(
        () => {
          if (closed) return;
          forgetAll();
          listening = true;
        },
        (error: unknown) => {
          report(error);
          subscriber?.disconnect(true);
        },
      );
    });
    subscriber.on('message', (channel: string, text: string) => {
      if (channel !== options.channel) return;
      try {
        const message = JSON.parse(text) as Invalidation;
        if (message.from !== instanceId) forgetLocally(Number(message.userId));
      } catch {
        forgetAll();
      }
    });
  }

  return {
    get(key, now) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt <= now || !listening) {
        entries.delete(key);
        return undefined;
      }
      return entry.value;
    },
    set(key, userId, value, validUntil, readSince) {
      if (!listening || closed || readSince !== invalidations) return;
      if (entries.size >= options.maxEntries && !entries.has(key)) {
        const oldest = entries.keys().next();
        if (!oldest.done) entries.delete(oldest.value);
      }
      entries.set(key, {
        userId,
        value,
        expiresAt: Math.min(validUntil, Date.now() + options.lifetimeMs),
      });
    },
    generation: () => invalidations,
    async forgetUser(userId) {
      forgetLocally(userId);
      if (!publisher) return;
      const text = JSON.stringify({ userId, from: instanceId } satisfies Invalidation);
      if (await publish(text, true)) return;
      // Not published (this instance's Redis connection is down or reconnecting while the others
      // may still listen and remember): keep trying in the background until their copies would
      // have lapsed anyway; the caller is not held.
      const giveUpAt = Date.now() + options.lifetimeMs;
      const retry = () => {
        retries.delete(timer);
        if (closed || Date.now() >= giveUpAt) return;
        void publish(text, false).then((done) => {
          if (!done && !closed) {
            timer = setTimeout(retry, PUBLISH_RETRY_MS);
            timer.unref();
            retries.add(timer);
          }
        });
      };
      let timer = setTimeout(retry, PUBLISH_RETRY_MS);
      timer.unref();
      retries.add(timer);
    },
    async close() {
      closed = true;
      for (const timer of retries) clearTimeout(timer);
      retries.clear();
      listening = false;
      entries.clear();
      publisher?.disconnect();
      subscriber?.disconnect();
    },
  };
};
