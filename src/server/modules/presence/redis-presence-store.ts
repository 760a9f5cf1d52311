import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { redisForCommands } from '../../lib/redis.js';
import type { PresenceStore } from './presence-store.js';
import {
  HOLD_HOSTED_SCRIPT,
  HOLD_SCRIPT,
  LEAVE_HOSTED_SCRIPT,
  RELEASE_DUE_HOSTED_SCRIPT,
  RELEASE_SCRIPT,
  SWEEP_INSTANCE_SCRIPT,
  type PresenceCommands,
} from './redis-presence-scripts.js';

/** Hosted releases done per script call (one short script at a time). */
const RELEASE_DUE_BATCH = 500;

/** An instance's heartbeat lives this long; it is renewed three times as often. */
const ALIVE_MS = 30_000;

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
