import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { redisForCommands } from '../../lib/redis.js';

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
  /** A clean stop: every hold of this instance is let go; the users who went offline. */
  releaseAllHeldHere(): Promise<number[]>;
  /**
   * Called after the holds were written again following an outage (Redis store), with the users
   * that made online again (a sweep had taken them offline meanwhile).
   */
  onRestored?(listener: (cameBack: number[]) => void): void;
  /**
   * Hosted Pusher: its webhook says the user's channel has sockets there. They are held by one
   * holder shared by every instance (a webhook may land on any of them), and a release pending
   * from an earlier `leaveHosted` is called off. True when nobody held them before.
   */
  holdHosted(userId: number, at: number): Promise<boolean>;
  /**
   * Hosted Pusher: the user's channel lost its last socket there at `at` (ms, the hosted service's
   * time); let go at `releaseAt` (ms). An event older than the user's last one changes nothing.
   */
  leaveHosted(userId: number, at: number, releaseAt: number): Promise<void>;
  /**
   * The hosted releases due by `now` (ms), done at once by whichever instance asks first: the users
   * who went offline, each with the moment their release was due.
   */
  releaseDueHosted(now: number): Promise<{ userId: number; releaseAt: number }[]>;
  close(): Promise<void>;
}

/** One instance: the holds are this process's. */
export class MemoryPresenceStore implements PresenceStore {
  private readonly held = new Set<number>();
  /** Held for the hosted Pusher's sockets, and when those are let go if not back by then. */
  private readonly hosted = new Set<number>();
  private readonly hostedLeaving = new Map<number, number>();

  private isOnline(userId: number): boolean {
    return this.held.has(userId) || this.hosted.has(userId);
  }

  async hold(userId: number): Promise<boolean> {
    if (this.held.has(userId)) return false;
    const before = this.isOnline(userId);
    this.held.add(userId);
    return !before;
  }

  async release(userId: number): Promise<boolean> {
    return this.held.delete(userId) && !this.isOnline(userId);
  }

  async onlineAmong(ids: readonly number[]): Promise<Set<number>> {
    return new Set(ids.filter((id) => this.isOnline(id)));
  }

  async sweep(): Promise<number[]> {
    return [];
  }

  async releaseAllHeldHere(): Promise<number[]> {
    const users = [...this.held];
    this.held.clear();
    return users.filter((userId) => !this.isOnline(userId));
  }

  /** The hosted service's time of each user's last event (an older one is dropped). */
  private readonly hostedLast = new Map<number, number>();

  private isStale(userId: number, at: number): boolean {
    if (at < (this.hostedLast.get(userId) ?? 0)) return true;
    this.hostedLast.set(userId, at);
    return false;
  }

  async holdHosted(userId: number, at: number): Promise<boolean> {
    if (this.isStale(userId, at)) return false;
    this.hostedLeaving.delete(userId);
    if (this.hosted.has(userId)) return false;
    const before = this.isOnline(userId);
    this.hosted.add(userId);
    return !before;
  }

  async leaveHosted(userId: number, at: number, releaseAt: number): Promise<void> {
    if (this.isStale(userId, at)) return;
    if (this.hosted.has(userId)) this.hostedLeaving.set(userId, releaseAt);
  }

  async releaseDueHosted(now: number): Promise<{ userId: number; releaseAt: number }[]> {
    const released: { userId: number; releaseAt: number }[] = [];
    for (const [userId, releaseAt] of this.hostedLeaving) {
      if (releaseAt > now) continue;
      this.hostedLeaving.delete(userId);
      this.hosted.delete(userId);
      if (!this.isOnline(userId)) released.push({ userId, releaseAt });
    }
    return released;
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

// Hosted events carry the hosted service's time: one older than the user's last one is dropped
// (a webhook retried or delivered late must not undo a newer one).
// KEYS: holders, online, the hosted holds (set), the hosted releases (sorted set), the last event
// times (hash). ARGV: user id, event time (ms).
const HOLD_HOSTED_SCRIPT = `
local last = tonumber(redis.call('HGET', KEYS[5], ARGV[1]) or '0')
if tonumber(ARGV[2]) < last then return 0 end
redis.call('HSET', KEYS[5], ARGV[1], ARGV[2])
redis.call('ZREM', KEYS[4], ARGV[1])
if redis.call('SADD', KEYS[3], ARGV[1]) == 0 then return 0 end
local holders = redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
if holders == 1 then redis.call('SADD', KEYS[2], ARGV[1]) return 1 end
return 0
`;
// KEYS: the hosted holds, the hosted releases, the last event times. ARGV: user id, event time
// (ms), release moment (ms).
const LEAVE_HOSTED_SCRIPT = `
local last = tonumber(redis.call('HGET', KEYS[3], ARGV[1]) or '0')
if tonumber(ARGV[2]) < last then return 0 end
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1]) end
return 0
`;
// KEYS: holders, online, the hosted holds, the hosted releases. ARGV: now (ms), at most this many.
// Returns how many releases were due and done, then user id, release moment, … for those who
// went offline.
const RELEASE_DUE_HOSTED_SCRIPT = `
local due = redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', ARGV[1], 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[2]))
local gone = { #due / 2 }
for i = 1, #due, 2 do
  local user = due[i]
  redis.call('ZREM', KEYS[4], user)
  if redis.call('SREM', KEYS[3], user) == 1 then
    local holders = redis.call('HINCRBY', KEYS[1], user, -1)
    if holders <= 0 then
      redis.call('HDEL', KEYS[1], user)
      redis.call('SREM', KEYS[2], user)
      table.insert(gone, user)
      table.insert(gone, due[i + 1])
    end
  end
end
return gone
`;
// KEYS: holders, online, the instances (set), the dead instance's holds, its alive key.
// ARGV: its id. Takes the holds of a dead instance (only if it is still dead and still listed:
// one sweeper, and never an instance that came back) and returns who went offline.
const SWEEP_INSTANCE_SCRIPT = `
if redis.call('EXISTS', KEYS[5]) == 1 then return {} end
if redis.call('SREM', KEYS[3], ARGV[1]) == 0 then return {} end
local gone = {}
for _, user in ipairs(redis.call('SMEMBERS', KEYS[4])) do
  local holders = redis.call('HINCRBY', KEYS[1], user, -1)
  if holders <= 0 then
    redis.call('HDEL', KEYS[1], user)
    redis.call('SREM', KEYS[2], user)
    table.insert(gone, user)
  end
end
redis.call('DEL', KEYS[4])
return gone
`;

/** Hosted releases done per script call (one short script at a time). */
const RELEASE_DUE_BATCH = 500;

/** An instance's heartbeat lives this long; it is renewed three times as often. */
const ALIVE_MS = 30_000;

interface PresenceCommands {
  presenceHold(holders: string, online: string, mine: string, userId: number): Promise<number>;
  presenceRelease(holders: string, online: string, mine: string, userId: number): Promise<number>;
  presenceHoldHosted(
    holders: string,
    online: string,
    hosted: string,
    leaving: string,
    lastEvents: string,
    userId: number,
    at: number,
  ): Promise<number>;
  presenceLeaveHosted(
    hosted: string,
    leaving: string,
    lastEvents: string,
    userId: number,
    at: number,
    releaseAt: number,
  ): Promise<number>;
  presenceReleaseDueHosted(
    holders: string,
    online: string,
    hosted: string,
    leaving: string,
    now: number,
    limit: number,
  ): Promise<(string | number)[]>;
  presenceSweepInstance(
    holders: string,
    online: string,
    instances: string,
    holds: string,
    alive: string,
    instanceId: string,
  ): Promise<string[]>;
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
    // a command fails at once while Redis is away (no queue to wait in), or after 500 ms
    this.redis = redisForCommands(url, `presence:${prefix}`, { queueWhileConnecting: false });
    const lost = () => {
      this.outage = true;
    };
    this.redis.on('error', lost);
    this.redis.on('close', lost);
    this.redis.on('end', lost);
    this.redis.on('ready', () => void beat());
    this.redis.defineCommand('presenceHold', { numberOfKeys: 3, lua: HOLD_SCRIPT });
    this.redis.defineCommand('presenceRelease', { numberOfKeys: 3, lua: RELEASE_SCRIPT });
    this.redis.defineCommand('presenceHoldHosted', { numberOfKeys: 5, lua: HOLD_HOSTED_SCRIPT });
    this.redis.defineCommand('presenceLeaveHosted', { numberOfKeys: 3, lua: LEAVE_HOSTED_SCRIPT });
    this.redis.defineCommand('presenceReleaseDueHosted', {
      numberOfKeys: 4,
      lua: RELEASE_DUE_HOSTED_SCRIPT,
    });
    this.redis.defineCommand('presenceSweepInstance', {
      numberOfKeys: 5,
      lua: SWEEP_INSTANCE_SCRIPT,
    });
    // A beat after an outage (a lost connection, a command that timed out), or one that finds this
    // instance swept as dead (it was paused too long), writes its holds again.
    const beat = async () => {
      try {
        const results = await this.redis
          .multi()
          .set(this.aliveKey(this.instanceId), '1', 'PX', ALIVE_MS)
          .sadd(this.key('instances'), this.instanceId)
          .exec();
        const listedAgain = results?.[1]?.[1] === 1;
        if (!this.outage && !listedAgain) return;
        this.outage = false;
        await this.restore();
      } catch (error) {
        if (!this.outage) this.onError(error);
        this.outage = true;
      }
    };
    // the first beat comes with the first 'ready'
    this.heartbeat = setInterval(() => void beat(), ALIVE_MS / 3).unref();
  }

  /** Resolves once connected (commands fail at once before that: there is no offline queue). */
  ready(): Promise<void> {
    if (this.redis.status === 'ready') return Promise.resolve();
    return new Promise((resolve) => this.redis.once('ready', () => resolve()));
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

  /** This instance's hold in Redis; true when nobody held the user before. */
  private async holdHere(userId: number): Promise<boolean> {
    const holds = this.holdsKey(this.instanceId);
    return (
      (await this.commands.presenceHold(this.key('holders'), this.key('online'), holds, userId)) ===
      1
    );
  }

  async hold(userId: number): Promise<boolean> {
    this.local.add(userId);
    try {
      return await this.holdHere(userId);
    } catch (error) {
      // it may have run or not (a timeout): the next heartbeat writes the holds again
      this.outage = true;
      throw error;
    }
  }

  async release(userId: number): Promise<boolean> {
    this.local.delete(userId);
    try {
      return await this.releaseFor(this.instanceId, userId);
    } catch (error) {
      this.outage = true;
      throw error;
    }
  }

  onRestored(listener: (cameBack: number[]) => void): void {
    this.restoredListener = listener;
  }

  private restoredListener: ((cameBack: number[]) => void) | undefined;

  /**
   * Redis is back after an outage (or this instance was swept as dead): its holds are written
   * again and what it let go of meanwhile is released; then the service tells partners what
   * changed (`onRestored`).
   */
  private async restore(): Promise<void> {
    const holds = this.holdsKey(this.instanceId);
    const inRedis = (await this.redis.smembers(holds)).map(Number);
    for (const userId of inRedis)
      if (!this.local.has(userId)) await this.releaseFor(this.instanceId, userId);
    const cameBack: number[] = [];
    for (const userId of this.local) if (await this.holdHere(userId)) cameBack.push(userId);
    this.restoredListener?.(cameBack);
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
      // Re-checked and done in one script: one sweeper, and not an instance that is back.
      const gone = await this.commands.presenceSweepInstance(
        this.key('holders'),
        this.key('online'),
        this.key('instances'),
        this.holdsKey(instanceId),
        this.aliveKey(instanceId),
        instanceId,
      );
      wentOffline.push(...gone.map(Number));
    }
    return wentOffline;
  }

  async releaseAllHeldHere(): Promise<number[]> {
    this.local.clear();
    // this instance's heartbeat goes first, then the same script as for a dead instance
    await this.redis.del(this.aliveKey(this.instanceId));
    await this.redis.sadd(this.key('instances'), this.instanceId);
    const gone = await this.commands.presenceSweepInstance(
      this.key('holders'),
      this.key('online'),
      this.key('instances'),
      this.holdsKey(this.instanceId),
      this.aliveKey(this.instanceId),
      this.instanceId,
    );
    return gone.map(Number);
  }

  async holdHosted(userId: number, at: number): Promise<boolean> {
    return (
      (await this.commands.presenceHoldHosted(
        this.key('holders'),
        this.key('online'),
        this.key('hosted'),
        this.key('hosted-leaving'),
        this.key('hosted-last'),
        userId,
        at,
      )) === 1
    );
  }

  async leaveHosted(userId: number, at: number, releaseAt: number): Promise<void> {
    await this.commands.presenceLeaveHosted(
      this.key('hosted'),
      this.key('hosted-leaving'),
      this.key('hosted-last'),
      userId,
      at,
      releaseAt,
    );
  }

  async releaseDueHosted(now: number): Promise<{ userId: number; releaseAt: number }[]> {
    const released: { userId: number; releaseAt: number }[] = [];
    for (;;) {
      const flat = await this.commands.presenceReleaseDueHosted(
        this.key('holders'),
        this.key('online'),
        this.key('hosted'),
        this.key('hosted-leaving'),
        now,
        RELEASE_DUE_BATCH,
      );
      const [done, ...gone] = flat;
      for (let index = 0; index + 1 < gone.length; index += 2)
        released.push({ userId: Number(gone[index]), releaseAt: Number(gone[index + 1]) });
      // a full batch: more may be due
      if (Number(done) < RELEASE_DUE_BATCH) return released;
    }
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
