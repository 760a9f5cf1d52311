import { nowIso } from '../../lib/time.js';
import type { PresenceAnnouncements } from './presence-announcements.js';
import type { PresenceStore } from './presence-store.js';
import type { Serially } from './presence-queues.js';

/**
 * Users whose change could not be recorded (the store failed, maybe after doing it): once the
 * store is back, partners are told how things now stand.
 */
export const createUnsureUsers = ({
  store,
  serially,
  announce,
  wentOffline,
}: {
  store: PresenceStore;
  serially: Serially;
  announce: PresenceAnnouncements['announce'];
  wentOffline: PresenceAnnouncements['wentOffline'];
}) => {
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

  return {
    /** A hold or release in the store; a user whose change failed (maybe after it was made) is unsure. */
    changeInStore: async (userId: number, change: () => Promise<boolean>) => {
      try {
        return await change();
      } catch (error) {
        unsure.add(userId);
        throw error;
      }
    },
  };
};
