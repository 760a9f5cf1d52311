import { parseUserChannel } from '../../../shared/events.js';
import type { PresenceAnnouncements } from './presence-announcements.js';
import type { PresenceStore } from './presence-store.js';
import type { Serially } from './presence-queues.js';

/**
 * From a hosted Pusher's webhooks (its sockets are not on any instance, and its webhooks may
 * land on any instance): held by one holder shared by every instance, let go `graceMs` after
 * the channel was vacated unless occupied again meanwhile. An instance that stops does not let
 * these users go (the hosted service keeps their sockets).
 */
export const createHostedOccupancy =
  ({
    store,
    serially,
    announce,
    graceMs,
    releaseDueHosted,
    onReleaseError,
  }: {
    store: PresenceStore;
    serially: Serially;
    announce: PresenceAnnouncements['announce'];
    graceMs: number;
    releaseDueHosted: () => Promise<void>;
    onReleaseError: (error: unknown) => void;
  }) =>
  (channel: string, occupied: boolean, atMs: number): Promise<void> => {
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
        releaseDueHosted().catch(onReleaseError);
      },
      releaseAt - Date.now() + 10,
    );
    timer.unref();
    return serially(userId, () => store.leaveHosted(userId, at, releaseAt), {
      rethrow: true,
    });
  };
