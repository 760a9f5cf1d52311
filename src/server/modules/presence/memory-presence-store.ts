import type { PresenceStore } from './presence-store.js';

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
