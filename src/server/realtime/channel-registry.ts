/** Who is subscribed to what on this instance, including presence membership (one member per user). */

export interface Subscriber {
  readonly id: string;
  /** Sends one already serialized frame. */
  send(frame: string): void;
}

export interface PresenceSnapshot {
  presence: { ids: string[]; hash: Record<string, unknown>; count: number };
}

interface Member<S> {
  info: unknown;
  sockets: Set<S>;
}

/** A channel got its first subscriber on this instance (`true`) or lost its last one (`false`). */
export type OccupancyListener = (channel: string, occupied: boolean) => void;

export class ChannelRegistry<S extends Subscriber> {
  private readonly channels = new Map<string, Set<S>>();
  /** Told of channels occupied and vacated on this instance (Pusher's `channel_occupied`/`channel_vacated`). */
  onOccupancy: OccupancyListener | undefined;
  /** channel → user id → member (the sockets of that user on that channel). */
  private readonly presence = new Map<string, Map<string, Member<S>>>();

  subscribers(channel: string): ReadonlySet<S> | undefined {
    return this.channels.get(channel);
  }

  isSubscribed(channel: string, subscriber: S): boolean {
    return this.channels.get(channel)?.has(subscriber) ?? false;
  }

  channelCount(): number {
    return this.channels.size;
  }

  /** Adds a socket to a public/private channel. */
  add(channel: string, subscriber: S): void {
    let set = this.channels.get(channel);
    if (!set) {
      set = new Set();
      this.channels.set(channel, set);
    }
    const before = set.size;
    set.add(subscriber);
    if (before === 0) this.onOccupancy?.(channel, true);
  }

  /**
   * Adds a socket to a presence channel as `userId`. `added` is true when this user was not a member
   * before (then, and only then, the other subscribers get `member_added`).
   */
  addPresence(channel: string, subscriber: S, userId: string, info: unknown): { added: boolean } {
    this.add(channel, subscriber);
    let members = this.presence.get(channel);
    if (!members) {
      members = new Map();
      this.presence.set(channel, members);
    }
    const member = members.get(userId);
    if (member) {
      member.sockets.add(subscriber);
      return { added: false };
    }
    members.set(userId, { info, sockets: new Set([subscriber]) });
    return { added: true };
  }

  /** The `pusher_internal:subscription_succeeded` data of a presence channel. */
  presenceSnapshot(channel: string): PresenceSnapshot {
    const members = this.presence.get(channel);
    const ids: string[] = [];
    const hash: Record<string, unknown> = {};
    for (const [userId, member] of members ?? []) {
      ids.push(userId);
      hash[userId] = member.info ?? null;
    }
    return { presence: { ids, hash, count: ids.length } };
  }

  /**
   * Removes a socket from a channel. For presence, `removedUserId` is set when this was the user's
   * last socket there (then the remaining subscribers get `member_removed`).
   */
  remove(channel: string, subscriber: S, presenceUserId?: string): { removedUserId?: string } {
    const set = this.channels.get(channel);
    if (set?.delete(subscriber) && set.size === 0) {
      this.channels.delete(channel);
      this.onOccupancy?.(channel, false);
    }
    if (presenceUserId === undefined) return {};
    const members = this.presence.get(channel);
    const member = members?.get(presenceUserId);
    if (!members || !member) return {};
    member.sockets.delete(subscriber);
    if (member.sockets.size > 0) return {};
    members.delete(presenceUserId);
    if (members.size === 0) this.presence.delete(channel);
    return { removedUserId: presenceUserId };
  }
}
