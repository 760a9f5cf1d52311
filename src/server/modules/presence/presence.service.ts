import { parseUserChannel } from '../../../shared/events.js';
import { nowIso } from '../../lib/time.js';
import type { PresenceAnnouncements } from './presence-announcements.js';
import type { PresenceStore } from './presence-store.js';

export interface PresenceLogger {
  warn(obj: unknown, msg?: string): void;
}

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
  const queues = new Map<number, Promise<void>>();

  /**
   * Runs `work` after what is queued for the user. A failure is logged; with `rethrow` the caller
   * gets it too (a webhook answers 5xx, and the hosted service sends it again).
   */
  const serially = (
    userId: number,
    work: () => Promise<void>,
    { rethrow = false } = {},
  ): Promise<void> => {
    const previous = queues.get(userId) ?? Promise.resolve();
    const run = previous.then(work);
    const next = run.catch((error: unknown) => {
      logger?.warn({ err: error, userId }, 'presence: a change could not be recorded');
    });
    queues.set(userId, next);
    void next.finally(() => {
      if (queues.get(userId) === next) queues.delete(userId);
    });
    return rethrow ? run : next;
  };

  const { announce, wentOffline } = announcements;

  /** A clean stop is under way: sockets that open or close here meanwhile change nothing. */
  let closing = false;

  /**
   * Users whose change could not be recorded (the store failed, maybe after doing it): once the
   * store is back, partners are told how things now stand.
   */
  const unsure = new Set<number>();
  const reconcile = (cameBack: readonly number[]) => {
    for (const userId of cameBack) unsure.add(userId);
    for (const userId of [...unsure]) {
      unsure.delete(userId);
      void serially(userId, async () => {
        const online = (await store.onlineAmong([userId])).has(userId);
        if (online) await announce(userId, { user_id: userId, online: true, last_seen_at: null });
        else await wentOffline(userId, nowIso());
      });
    }
  };
  store.onRestored?.(reconcile);

  /** A hold or release in the store; a user whose change failed (maybe after it was made) is unsure. */
  const changeInStore = async (userId: number, change: () => Promise<boolean>) => {
    try {
      return await change();
    } catch (error) {
      unsure.add(userId);
      throw error;
    }
  };

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

  /**
   * Users the store let go of without this instance holding them (a crashed instance's, the hosted
   * service's): told one after another through each user's queue, and only if still offline then
   * (they may have come back here meanwhile).
   */
  const announceReleased = async (released: readonly { userId: number; at: string }[]) => {
    for (const { userId, at } of released)
      await serially(userId, async () => {
        if ((await store.onlineAmong([userId])).has(userId)) return;
        await wentOffline(userId, at);
      });
  };

  /** Hosted releases that are due, by whichever instance comes first (one that crashed too). */
  const releaseDueHosted = async () => {
    const due = await store.releaseDueHosted(Date.now());
    await announceReleased(
      due.map(({ userId, releaseAt }) => ({
        userId,
        at: new Date(releaseAt - graceMs).toISOString(),
      })),
    );
  };

  const logFailure = (what: string) => (error: unknown) =>
    logger?.warn({ err: error }, `presence: ${what} failed`);

  let sweeping = false;
  const sweeper = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    const at = nowIso();
    store
      .sweep()
      .then((userIds) => announceReleased(userIds.map((userId) => ({ userId, at }))))
      .then(releaseDueHosted)
      .catch(logFailure('sweep'))
      .finally(() => {
        sweeping = false;
      });
  }, options.sweepIntervalMs ?? 10_000);
  sweeper.unref();

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
     * the channel was vacated unless occupied again meanwhile. An instance that stops does not let
     * these users go (the hosted service keeps their sockets).
     */
    hostedOccupancy(channel: string, occupied: boolean, atMs: number): Promise<void> {
      const userId = parseUserChannel(channel);
      if (userId === null) return Promise.resolve();
      // the hosted service's time orders its events; never later than ours (a clock ahead)
      const at = Math.min(atMs, Date.now());
      if (occupied)
        return serially(
          userId,
          async () => {
            if (await store.holdHosted(userId, at))
              void serially(userId, () =>
                announce(userId, { user_id: userId, online: true, last_seen_at: null }).then(
                  () => undefined,
                ),
              );
          },
          { rethrow: true },
        );
      const releaseAt = at + graceMs;
      const timer = setTimeout(
        () => {
          releaseDueHosted().catch(logFailure('a hosted release'));
        },
        releaseAt - Date.now() + 10,
      );
      timer.unref();
      return serially(userId, () => store.leaveHosted(userId, at, releaseAt), {
        rethrow: true,
      });
    },

    /** Resolves once what is under way for the user is recorded (tests). */
    settled: (userId: number): Promise<void> => queues.get(userId) ?? Promise.resolve(),

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
      await Promise.all([...queues.values()]);
      // whatever is still held here (a release that failed): let go too, nothing left behind
      try {
        await announceReleased(
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
