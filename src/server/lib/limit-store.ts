import type { Redis } from 'ioredis';
import { redisForCommands } from './redis.js';

/**
 * Counters behind every limit (sign-in throttling, send rates): in this process, or in Redis so that
 * several instances of one deployment share one limit. Keys are namespaced by the caller.
 */
export interface LimitStore {
  /** Token bucket: takes one token; 0 when allowed, otherwise the seconds until one is available. */
  take(key: string, burst: number, perSecond: number): Promise<number>;
  /** Counts one failure; the count lapses `ttlMs` after the latest one. Returns the new count. */
  addFailure(key: string, ttlMs: number): Promise<number>;
  /** The current failure count. */
  failures(key: string): Promise<number>;
  /** Blocks the key for `ms`. */
  block(key: string, ms: number): Promise<void>;
  /** Milliseconds the key stays blocked (0: not blocked). */
  blockedFor(key: string): Promise<number>;
  /** Forgets the failures and block of a key. */
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

interface Entry {
  value: number;
  /** Token buckets: when the value was last refilled. */
  updatedAt: number;
  expiresAt: number;
}

const PRUNE_EVERY = 1_000;

/** One process's limits. Expired entries are pruned as it goes, so memory stays bounded by live keys. */
export class MemoryLimitStore implements LimitStore {
  private readonly entries = new Map<string, Entry>();
  private operations = 0;

  constructor(private readonly now: () => number = Date.now) {}

  size(): number {
    return this.entries.size;
  }

  async take(key: string, burst: number, perSecond: number): Promise<number> {
    return this.takeNow(key, burst, perSecond);
  }

  /** Synchronous token bucket (also used as the Redis store's fallback). */
  takeNow(key: string, burst: number, perSecond: number): number {
    const now = this.now();
    const id = `bucket:${key}`;
    const live = this.live(id, now);
    const tokens = live
      ? Math.min(burst, live.value + ((now - live.updatedAt) / 1000) * perSecond)
      : burst;
    const fullInMs = (burst / perSecond) * 1000;
    if (tokens >= 1) {
      this.set(id, { value: tokens - 1, updatedAt: now, expiresAt: now + fullInMs });
      return 0;
    }
    this.set(id, { value: tokens, updatedAt: now, expiresAt: now + fullInMs });
    return (1 - tokens) / perSecond;
  }

  async addFailure(key: string, ttlMs: number): Promise<number> {
    const now = this.now();
    const id = `failures:${key}`;
    const value = (this.live(id, now)?.value ?? 0) + 1;
    this.set(id, { value, updatedAt: now, expiresAt: now + ttlMs });
    return value;
  }

  async failures(key: string): Promise<number> {
    return this.live(`failures:${key}`, this.now())?.value ?? 0;
  }

  async block(key: string, ms: number): Promise<void> {
    const now = this.now();
    this.set(`block:${key}`, { value: 1, updatedAt: now, expiresAt: now + ms });
  }

  async blockedFor(key: string): Promise<number> {
    const now = this.now();
    const entry = this.live(`block:${key}`, now);
    return entry ? entry.expiresAt - now : 0;
  }

  async reset(key: string): Promise<void> {
    this.entries.delete(`failures:${key}`);
    this.entries.delete(`block:${key}`);
  }

  async close(): Promise<void> {
    this.entries.clear();
  }

  private live(id: string, now: number): Entry | undefined {
    const entry = this.entries.get(id);
    if (entry && entry.expiresAt <= now) {
      this.entries.delete(id);
      return undefined;
    }
    return entry;
  }

  private set(id: string, entry: Entry): void {
    this.entries.set(id, entry);
    this.operations += 1;
    if (this.operations % PRUNE_EVERY === 0) this.prune();
  }

  private prune(): void {
    const now = this.now();
    for (const [id, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(id);
  }
}

/**
 * Atomic token bucket in Redis: the bucket is a hash {tokens, at}; refilled by elapsed time (Redis's
 * own clock, so instances with skewed clocks agree), expiring once it would be full again.
 */
const TAKE_SCRIPT = `
local burst = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil then tokens = burst; at = now end
tokens = math.min(burst, tokens + ((now - at) / 1000) * rate)
local wait = 0
if tokens >= 1 then tokens = tokens - 1 else wait = (1 - tokens) / rate end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst / rate) * 1000) + 1000)
return tostring(wait)
`;

const REDIS_RETRY_AFTER_MS = 5_000;

/**
 * Limits shared by every instance through Redis. While Redis cannot be reached, each instance falls
 * back to its own memory (limits then hold per instance) rather than refusing everyone.
 */
export class RedisLimitStore implements LimitStore {
  private readonly redis: Redis;
  private readonly fallback = new MemoryLimitStore();
  /** After a failure, Redis is left alone for a moment instead of making every request wait on it. */
  private skipRedisUntil = 0;

  constructor(
    url: string,
    private readonly prefix: string,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {
    // Queued while (re)connecting, so that the first requests after a start are counted in Redis
    // too; a connection that fails, or a command that does not answer in time, falls back.
    this.redis = redisForCommands(url, `limits:${prefix}`, { queueWhileConnecting: true });
    this.redis.on('error', () => undefined);
    this.redis.defineCommand('takeToken', { numberOfKeys: 1, lua: TAKE_SCRIPT });
  }

  async take(key: string, burst: number, perSecond: number): Promise<number> {
    return this.guard(
      async () => {
        const command = this.redis as unknown as {
          takeToken(key: string, burst: number, rate: number): Promise<string>;
        };
        return Number(await command.takeToken(this.key('bucket', key), burst, perSecond));
      },
      () => this.fallback.take(key, burst, perSecond),
    );
  }

  async addFailure(key: string, ttlMs: number): Promise<number> {
    return this.guard(
      async () => {
        const id = this.key('failures', key);
        const results = await this.redis.multi().incr(id).pexpire(id, ttlMs).exec();
        return Number(results?.[0]?.[1] ?? 1);
      },
      () => this.fallback.addFailure(key, ttlMs),
    );
  }

  async failures(key: string): Promise<number> {
    return this.guard(
      async () => Number((await this.redis.get(this.key('failures', key))) ?? 0),
      () => this.fallback.failures(key),
    );
  }

  async block(key: string, ms: number): Promise<void> {
    await this.guard(
      async () => {
        await this.redis.set(this.key('block', key), '1', 'PX', Math.max(1, Math.ceil(ms)));
      },
      () => this.fallback.block(key, ms),
    );
  }

  async blockedFor(key: string): Promise<number> {
    return this.guard(
      async () => Math.max(0, await this.redis.pttl(this.key('block', key))),
      () => this.fallback.blockedFor(key),
    );
  }

  async reset(key: string): Promise<void> {
    await this.guard(
      async () => {
        await this.redis.del(this.key('failures', key), this.key('block', key));
      },
      () => this.fallback.reset(key),
    );
  }

  async close(): Promise<void> {
    this.redis.disconnect();
    await this.fallback.close();
  }

  private key(kind: string, key: string): string {
    return `${this.prefix}:${kind}:${key}`;
  }

  private async guard<T>(work: () => Promise<T>, fallback: () => Promise<T>): Promise<T> {
    if (Date.now() < this.skipRedisUntil) return fallback();
    try {
      return await work();
    } catch (error) {
      if (Date.now() >= this.skipRedisUntil) this.onError(error);
      this.skipRedisUntil = Date.now() + REDIS_RETRY_AFTER_MS;
      return fallback();
    }
  }
}

export const createLimitStore = (options: {
  redisUrl: string | undefined;
  prefix: string;
  onError?: (error: unknown) => void;
}): LimitStore =>
  options.redisUrl
    ? new RedisLimitStore(options.redisUrl, options.prefix, options.onError)
    : new MemoryLimitStore();
