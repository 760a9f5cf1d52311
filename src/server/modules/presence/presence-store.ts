import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';

/**
 * Who is online, over every instance. An instance "holds" a user while that user's own channel has
 * a socket on it (and for the grace after the last one closed: the service decides when to let go).
 * A user is online while at least one instance holds them.
 */
export interface PresenceStore {
  /** This instance holds the user now; true when nobody held them before (they came online). */
  hold(userId: number): Promise<boolean>;
  /** This instance lets the user go; true when nobody holds them any more (they went offline). */
  release(userId: number): Promise<boolean>;
  /** The users among `ids` whom some instance holds. */
  onlineAmong(ids: readonly number[]): Promise<Set<number>>;
  /**
   * Users held by instances that stopped without letting them go (crashed): released now, and
   * returned when nobody else holds them (they went offline). The memory store has none.
   */
  sweep(): Promise<number[]>;
  close(): Promise<void>;
}

/** One instance: the holds are this process's. */
export class MemoryPresenceStore implements PresenceStore {
  private readonly held = new Set<number>();

  async hold(userId: number): Promise<boolean> {
    if (this.held.has(userId)) return false;
    this.held.add(userId);
    return true;
  }

  async release(userId: number): Promise<boolean> {
    return this.held.delete(userId);
  }

  async onlineAmong(ids: readonly number[]): Promise<Set<number>> {
    return new Set(ids.filter((id) => this.held.has(id)));
  }

  async sweep(): Promise<number[]> {
    return [];
  }

  async close(): Promise<void> {
    this.held.clear();
  }
}

// KEYS: holders count (hash), online (set), this instance's holds (set). ARGV: user id.
const HOLD_SCRIPT = `
if redis.call('SADD', KEYS[3], ARGV[1]) == 0 then return 0 end
local holders = redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
if holders == 1 then redis.call('SADD', KEYS[2], ARGV[1]) return 1 end
return 0
`;
const RELEASE_SCRIPT = `
if redis.call('SREM', KEYS[3], ARGV[1]) == 0 then return 0 end
local holders = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
if holders <= 0 then
  redis.call('HDEL', KEYS[1], ARGV[1])
  redis.call('SREM', KEYS[2], ARGV[1])
  return 1
end
return 0
`;

/** An instance's heartbeat lives this long; it is renewed three times as often. */
const ALIVE_MS = 30_000;

interface PresenceCommands {
  presenceHold(holders: string, online: string, mine: string, userId: number): Promise<number>;
  presenceRelease(holders: string, online: string, mine: string, userId: number): Promise<number>;
}

/**
 * Every instance through Redis: `holders` counts the instances holding each user, `online` is the
 * set of users held by at least one (asked with SMISMEMBER), each instance lists its own holds, and
 * keeps a heartbeat key alive; the holds of an instance whose heartbeat expired (it crashed) are
 * released by whichever instance sweeps first.
 */
export class RedisPresenceStore implements PresenceStore {
  private readonly redis: Redis;
  private readonly instanceId = randomUUID();
  private readonly heartbeat: NodeJS.Timeout;
  /**
   * The users this instance holds, also kept here: while Redis cannot be reached they are the
   * answer (a send or a list never fails for presence), and when it is back they are written again.
   */
  private readonly local = new Set<number>();
  /** Not connected yet, or lost: the next 'ready' writes this instance's holds (again). */
  private outage = true;

  constructor(
    url: string,
    private readonly prefix: string,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {
    this.redis = new Redis(url, {
      connectionName: `presence:${prefix}`.slice(0, 100),
      // a command fails at once while Redis is away (no queue to wait in), or after 500 ms
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: 500,
    });
    this.redis.on('error', () => {
      this.outage = true;
    });
    this.redis.on('ready', () => {
      if (!this.outage) return;
      this.outage = false;
      void beat().then(() => this.restore().catch(this.onError));
    });
    this.redis.defineCommand('presenceHold', { numberOfKeys: 3, lua: HOLD_SCRIPT });
    this.redis.defineCommand('presenceRelease', { numberOfKeys: 3, lua: RELEASE_SCRIPT });
    const beat = () =>
      this.redis
        .multi()
        .set(this.aliveKey(this.instanceId), '1', 'PX', ALIVE_MS)
        .sadd(this.key('instances'), this.instanceId)
        .exec()
        .catch((error: unknown) => {
          if (!this.outage) this.onError(error);
        });
    // the first beat comes with the first 'ready'
    this.heartbeat = setInterval(() => void beat(), ALIVE_MS / 3).unref();
  }

  private key(name: string): string {
    return `${this.prefix}:presence:${name}`;
  }

  private aliveKey(instanceId: string): string {
    return this.key(`alive:${instanceId}`);
  }

  private holdsKey(instanceId: string): string {
    return this.key(`holds:${instanceId}`);
  }

  private get commands(): PresenceCommands {
    return this.redis as unknown as PresenceCommands;
  }

  async hold(userId: number): Promise<boolean> {
    this.local.add(userId);
    const holds = this.holdsKey(this.instanceId);
    return (
      (await this.commands.presenceHold(this.key('holders'), this.key('online'), holds, userId)) ===
      1
    );
  }

  async release(userId: number): Promise<boolean> {
    this.local.delete(userId);
    return this.releaseFor(this.instanceId, userId);
  }

  /**
   * Redis is back after an outage: this instance's holds are written again, and what it let go of
   * meanwhile is released (nobody is told: partners learn it from their lists and the next change).
   */
  private async restore(): Promise<void> {
    const holds = this.holdsKey(this.instanceId);
    const inRedis = (await this.redis.smembers(holds)).map(Number);
    for (const userId of inRedis)
      if (!this.local.has(userId)) await this.releaseFor(this.instanceId, userId);
    for (const userId of this.local)
      await this.commands.presenceHold(this.key('holders'), this.key('online'), holds, userId);
  }

  private async releaseFor(instanceId: string, userId: number): Promise<boolean> {
    return (
      (await this.commands.presenceRelease(
        this.key('holders'),
        this.key('online'),
        this.holdsKey(instanceId),
        userId,
      )) === 1
    );
  }

  async onlineAmong(ids: readonly number[]): Promise<Set<number>> {
    try {
      return await this.onlineInRedis(ids);
    } catch (error) {
      // Redis away: what this instance knows (said once per outage)
      if (!this.outage) this.onError(error);
      this.outage = true;
      return new Set(ids.filter((id) => this.local.has(id)));
    }
  }

  private async onlineInRedis(ids: readonly number[]): Promise<Set<number>> {
    const online = new Set<number>();
    // SMISMEMBER in slices: one round trip each, no huge command
    for (let start = 0; start < ids.length; start += 5_000) {
      const slice = ids.slice(start, start + 5_000);
      if (slice.length === 0) continue;
      const flags = await this.redis.smismember(this.key('online'), ...slice.map(String));
      flags.forEach((flag, index) => {
        if (flag === 1) online.add(slice[index]!);
      });
    }
    return online;
  }

  async sweep(): Promise<number[]> {
    const instances = await this.redis.smembers(this.key('instances'));
    const wentOffline: number[] = [];
    for (const instanceId of instances) {
      if (instanceId === this.instanceId) continue;
      if ((await this.redis.exists(this.aliveKey(instanceId))) === 1) continue;
      // Only one sweeper takes a dead instance's holds.
      const claimed = await this.redis.srem(this.key('instances'), instanceId);
      if (claimed === 0) continue;
      const holds = await this.redis.smembers(this.holdsKey(instanceId));
      for (const userId of holds.map(Number)) {
        if (await this.releaseFor(instanceId, userId)) wentOffline.push(userId);
      }
      await this.redis.del(this.holdsKey(instanceId));
    }
    return wentOffline;
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    // A clean stop leaves nothing to sweep: the service released every hold before.
    await this.redis
      .multi()
      .del(this.aliveKey(this.instanceId))
      .srem(this.key('instances'), this.instanceId)
      .exec()
      .catch(this.onError);
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
