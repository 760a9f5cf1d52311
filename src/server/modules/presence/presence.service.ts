import { parseUserChannel } from '../../../shared/events.js';
import { nowIso } from '../../lib/time.js';
import { createHostedOccupancy } from './hosted-occupancy.js';
import type { PresenceAnnouncements } from './presence-announcements.js';
import { createPresenceQueues, type PresenceLogger } from './presence-queues.js';
import { createPresenceReleases, startReleaseSweeper } from './presence-releases.js';
import type { PresenceStore } from './presence-store.js';
import { createUnsureUsers } from './unsure-users.js';

export type { PresenceLogger } from './presence-queues.js';

export interface PresenceServiceOptions {
  store: PresenceStore;
  /**
   * The database work and fan-out that follow a change (presence-announcements.ts): in the
   * background thread in the built server, on this thread in the API tests.
   */
  announcements: PresenceAnnouncements;
  /** Online for this long after the last socket closed (a reload does not flicker). */
  graceMs: number;
  logger?: PresenceLogger;
  /** How often the holds of crashed instances are looked for (Redis store). */
  sweepIntervalMs?: number;
}

/**
 * Presence: a user is online while their own channel has a socket on some
 * instance, and for `graceMs` after the last one closed. Coming online and going offline are told
 * to the partners who are online (`PresenceChanged`), unless the user hides it (`show_online` off).
 */
export const createPresenceService = (options: PresenceServiceOptions) => {
  const { store, announcements, graceMs, logger } = options;
  /** Users this instance holds (sockets here, or within the grace). */
  const held = new Set<number>();
  /** Users whose last socket here closed: released when the grace ends, unless they come back. */
  const leaving = new Map<number, NodeJS.Timeout>();
  /** One change at a time per user (a hold and a release must not cross in the store). */
  const queues = createPresenceQueues(logger);
  const { serially } = queues;

  const { announce, wentOffline } = announcements;

  /** A clean stop is under way: sockets that open or close here meanwhile change nothing. */
  let closing = false;

  /** Once the store is back after an outage, partners of users whose change failed are told. */
  const { changeInStore } = createUnsureUsers({ store, serially, announce, wentOffline });

  const arrived = (userId: number): Promise<void> => {
    if (closing) return Promise.resolve();
    const pending = leaving.get(userId);
    if (pending) {
      // back within the grace: still held, nobody is told anything
      clearTimeout(pending);
      leaving.delete(userId);
      return Promise.resolve();
    }
    held.add(userId);
    return serially(userId, async () => {
      if (await changeInStore(userId, () => store.hold(userId)))
        await announce(userId, { user_id: userId, online: true, last_seen_at: null });
    });
  };

  const release = (userId: number, lastSeenAt: string): Promise<void> => {
    held.delete(userId);
    return serially(userId, async () => {
      if (await changeInStore(userId, () => store.release(userId)))
        await wentOffline(userId, lastSeenAt);
    });
  };

  const left = (userId: number): void => {
    if (closing || leaving.has(userId) || !held.has(userId)) return;
    const lastSeenAt = nowIso();
    const timer = setTimeout(() => {
      leaving.delete(userId);
      void release(userId, lastSeenAt);
    }, graceMs);
    timer.unref();
    leaving.set(userId, timer);
  };

  const releases = createPresenceReleases({ store, serially, wentOffline, graceMs });

  const logFailure = (what: string) => (error: unknown) =>
    logger?.warn({ err: error }, `presence: ${what} failed`);

  const sweeper = startReleaseSweeper({
    store,
    releases,
    intervalMs: options.sweepIntervalMs ?? 10_000,
    onError: logFailure('sweep'),
  });

  return {
    /** Wired to the realtime endpoint: a user's own channel got its first socket here, or lost its last. */
    channelOccupancy(channel: string, occupied: boolean): void {
      const userId = parseUserChannel(channel);
      if (userId === null) return;
      if (occupied) void arrived(userId);
      else left(userId);
    },

    /**
     * From a hosted Pusher's webhooks (its sockets are not on any instance, and its webhooks may
     * land on any instance): held by one holder shared by every instance, let go `graceMs` after
     * the channel was vacated unless occupied again meanwhile (hosted-occupancy.ts).
     */
    hostedOccupancy: createHostedOccupancy({
      store,
      serially,
      announce,
      graceMs,
      releaseDueHosted: releases.releaseDueHosted,
      onReleaseError: logFailure('a hosted release'),
    }),

    /** Resolves once what is under way for the user is recorded (tests). */
    settled: queues.settled,

    /** The users among `ids` who are online (whether they show it is the caller's to apply). */
    onlineAmong: (ids: readonly number[]): Promise<Set<number>> =>
      ids.length === 0 ? Promise.resolve(new Set()) : store.onlineAmong(ids),

    /** Tells the online partners of an online user who switched `show_online`: they appear or vanish. */
    visibilityChanged(userId: number, showOnline: boolean): Promise<void> {
      // In the user's queue (not crossing a change of presence); a failure is logged, never the
      // caller's: the setting is saved whatever happens to the announcement.
      return serially(userId, async () => {
        if (!(await store.onlineAmong([userId])).has(userId)) return;
        await announce(
          userId,
          showOnline
            ? { user_id: userId, online: true, last_seen_at: null }
            : { user_id: userId, online: false, last_seen_at: null },
          { evenIfHidden: true },
        );
      });
    },

    /**
     * A block between two users began (`visible` false) or ended (true): each of them who is online
     * is told how the other now looks (presence-announcements.ts).
     */
    pairVisibilityChanged: (pair: readonly [number, number], visible: boolean): Promise<void> =>
      announcements.pairVisibilityChanged(pair, visible),

    /** The fan-out of one change, for the benchmark: how many partners were told. */
    announce,

    /** Lets every user this instance holds go now (a clean stop), without waiting for the grace. */
    async close(): Promise<void> {
      closing = true;
      clearInterval(sweeper);
      for (const timer of leaving.values()) clearTimeout(timer);
      leaving.clear();
      const at = nowIso();
      await Promise.all([...held].map((userId) => release(userId, at)));
      await queues.allSettled();
      // whatever is still held here (a release that failed): let go too, nothing left behind
      try {
        await releases.announceReleased(
          (await store.releaseAllHeldHere()).map((userId) => ({ userId, at })),
        );
      } catch (error) {
        logFailure('the last release')(error);
      }
      await store.close();
    },
  };
};

export type PresenceService = ReturnType<typeof createPresenceService>;
