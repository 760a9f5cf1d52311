import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import {
  PRESENCE_CHANGED_EVENT,
  userChannelName,
  type PresenceChangedEvent,
} from '../../../shared/events.js';
import type { Database } from '../../db/schema.js';
import type { Broadcaster } from '../../realtime/broadcaster-port.js';
import type { PresenceRepository } from './presence.repository.js';

/**
 * A change of presence reaches the online partners in slices of this many channels, the event loop
 * turning between slices: a user with 10,000 partners does not hold the server for one long task.
 */
export const PRESENCE_FANOUT_SLICE = 100;

export interface AnnounceOptions {
  /** Told even when the user hides being online (they just switched it off: partners must know). */
  evenIfHidden?: boolean;
}

/**
 * What follows a change of presence once the store has it: the database work (last seen, the
 * partners who may know) and the fan-out to those who are online. In the built server it runs in
 * the background thread (ADR 017), off the event loop that answers requests.
 */
export interface PresenceAnnouncements {
  /** Tells the user's online partners; how many were told (none for a hidden or erased user). */
  announce: (
    userId: number,
    event: PresenceChangedEvent,
    options?: AnnounceOptions,
  ) => Promise<number>;
  /** The user went offline everywhere at `at`: last seen saved, partners told, then `onWentOffline`. */
  wentOffline: (userId: number, at: string) => Promise<void>;
  /**
   * A block between two users began (`visible` false) or ended (true): each of them who is online
   * is told how the other now looks: offline across a block; once it ended, online or offline
   * since their last seen, when both show it. Part of the block's own request (not background work).
   */
  pairVisibilityChanged: (pair: readonly [number, number], visible: boolean) => Promise<void>;
}

export interface PresenceAnnouncementsOptions {
  db: Kysely<Database>;
  repository: PresenceRepository;
  /** The users among `ids` who are online (the presence store, or a question to whoever holds it). */
  onlineAmong(ids: readonly number[]): Promise<ReadonlySet<number>>;
  publisher: Pick<Broadcaster, 'publish'>;
  /** After a user went offline and partners were told (notifications send what waited). */
  onWentOffline?: (userId: number) => Promise<void>;
}

export const createPresenceAnnouncements = (
  options: PresenceAnnouncementsOptions,
): PresenceAnnouncements => {
  const { db, repository, publisher } = options;

  const announce = async (
    userId: number,
    event: PresenceChangedEvent,
    { evenIfHidden = false }: AnnounceOptions = {},
  ): Promise<number> => {
    const visibility = await repository.visibility(db, userId);
    if (!visibility || visibility.erased_at !== null) return 0;
    if (visibility.show_online === 0 && !evenIfHidden) return 0;
    // partners who hide their own online status see nobody's (both ways): they are not told
    const partners = await repository.visiblePartnersOf(db, userId);
    const online = partners.length === 0 ? [] : [...(await options.onlineAmong(partners))];
    for (let start = 0; start < online.length; start += PRESENCE_FANOUT_SLICE) {
      if (start > 0) await nextTurn();
      const channels = online.slice(start, start + PRESENCE_FANOUT_SLICE).map(userChannelName);
      await publisher.publish(channels, PRESENCE_CHANGED_EVENT, event);
    }
    return online.length;
  };

  return {
    announce,
    async pairVisibilityChanged([a, b], visible) {
      const [online, shownA, shownB] = await Promise.all([
        options.onlineAmong([a, b]),
        repository.visibility(db, a),
        repository.visibility(db, b),
      ]);
      const shows = (row: typeof shownA) =>
        row !== undefined && row.erased_at === null && row.show_online !== 0;
      const bothShow = shows(shownA) && shows(shownB);
      const lastSeen = new Map([
        [a, shownA?.last_seen_at ?? null],
        [b, shownB?.last_seen_at ?? null],
      ]);
      const tell = async (viewer: number, other: number) => {
        if (!online.has(viewer)) return;
        if (visible && !bothShow) return;
        // across a block the viewer saw the other offline with no last seen: once it ends, they
        // see them online, or offline since their last seen
        const event: PresenceChangedEvent =
          visible && !online.has(other)
            ? { user_id: other, online: false, last_seen_at: lastSeen.get(other) ?? null }
            : { user_id: other, online: visible, last_seen_at: null };
        await publisher.publish([userChannelName(viewer)], PRESENCE_CHANGED_EVENT, event);
      };
      await Promise.all([tell(a, b), tell(b, a)]);
    },
    async wentOffline(userId, at) {
      await repository.saveLastSeen(db, userId, at);
      await announce(userId, { user_id: userId, online: false, last_seen_at: at });
      await options.onWentOffline?.(userId);
    },
  };
};
