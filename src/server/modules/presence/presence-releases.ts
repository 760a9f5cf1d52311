import { nowIso } from '../../lib/time.js';
import type { PresenceAnnouncements } from './presence-announcements.js';
import type { PresenceStore } from './presence-store.js';
import type { Serially } from './presence-queues.js';

export interface PresenceReleaseParts {
  store: PresenceStore;
  serially: Serially;
  wentOffline: PresenceAnnouncements['wentOffline'];
  /** Online for this long after the last socket closed (a hosted release is due this long after). */
  graceMs: number;
}

/** Users let go by the store itself (a crashed instance's, the hosted service's). */
export const createPresenceReleases = ({
  store,
  serially,
  wentOffline,
  graceMs,
}: PresenceReleaseParts) => {
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

  return { announceReleased, releaseDueHosted };
};

/**
 * Every `intervalMs`, the holds of crashed instances are let go and due hosted releases done (one
 * sweep at a time); the timer does not keep the process alive.
 */
export const startReleaseSweeper = ({
  store,
  releases,
  intervalMs,
  onError,
}: {
  store: PresenceStore;
  releases: ReturnType<typeof createPresenceReleases>;
  intervalMs: number;
  onError: (error: unknown) => void;
}): NodeJS.Timeout => {
  let sweeping = false;
  const sweeper = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    const at = nowIso();
    store
      .sweep()
      .then((userIds) => releases.announceReleased(userIds.map((userId) => ({ userId, at }))))
      .then(releases.releaseDueHosted)
      .catch(onError)
      .finally(() => {
        sweeping = false;
      });
  }, intervalMs);
  sweeper.unref();
  return sweeper;
};
