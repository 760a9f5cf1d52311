import type { RealtimeLogger } from './types.js';

/**
 * Which channels' events reach this instance. With per-user routing an instance receives a
 * channel's events only while it holds a socket on that channel: it opens the channel's route when
 * the first socket subscribes and closes it after the last one leaves.
 */
export interface ChannelRoutes {
  /** A channel got its first socket on this instance: start receiving its events. */
  open(channel: string): void;
  /** A channel lost its last socket on this instance: stop receiving its events. */
  close(channel: string): void;
  /**
   * Resolves once the channel's events reach this instance, or once nobody here wants them any
   * more; `undefined` when they already do, so that the caller can confirm at once.
   */
  whenOpen(channel: string): Promise<void> | undefined;
}

/** What opens and closes one route on the broker (`SSUBSCRIBE`/`SUNSUBSCRIBE` of its shard channel). */
export interface RouteCommands {
  subscribe(channel: string): Promise<unknown>;
  unsubscribe(channel: string): Promise<unknown>;
}

const FIRST_RETRY_MS = 500;
const LAST_RETRY_MS = 30_000;

/**
 * Keeps the broker's subscriptions in step with the channels wanted, one command in flight per
 * channel: a socket that leaves and another that joins while a `SUNSUBSCRIBE` is under way end with
 * the channel subscribed, whatever the order of the answers. A command the broker refuses (a
 * cluster moving the slot, an ACL, a Redis without sharded pub/sub) is tried again, 0.5 s after the
 * first refusal and up to 30 s apart, while the channel is still wanted; until it is open, its
 * sockets wait for their confirmation.
 */
export class ShardedChannelRoutes implements ChannelRoutes {
  private readonly wanted = new Set<string>();
  private readonly active = new Set<string>();
  private readonly inFlight = new Set<string>();
  /** Refusals in a row of a channel's subscribe, and the timer of its next try. */
  private readonly attempts = new Map<string, number>();
  private readonly retryTimers = new Map<string, NodeJS.Timeout>();
  private readonly waiters = new Map<string, (() => void)[]>();
  private stopped = false;

  constructor(
    private readonly commands: RouteCommands,
    private readonly logger?: RealtimeLogger,
    private readonly firstRetryMs = FIRST_RETRY_MS,
  ) {}

  open(channel: string): void {
    this.wanted.add(channel);
    this.reconcile(channel);
  }

  close(channel: string): void {
    this.wanted.delete(channel);
    this.reconcile(channel);
    this.wake(channel);
  }

  whenOpen(channel: string): Promise<void> | undefined {
    if (this.settled(channel)) return this.active.has(channel) ? undefined : Promise.resolve();
    return new Promise((resolve) => {
      const list = this.waiters.get(channel) ?? [];
      list.push(resolve);
      this.waiters.set(channel, list);
    });
  }

  /** Channels routed here now (for tests and the bench). */
  activeCount(): number {
    return this.active.size;
  }

  /** Stops issuing commands (the connection is closing); whoever waits is let go. */
  stop(): void {
    this.stopped = true;
    for (const timer of this.retryTimers.values()) clearTimeout(timer);
    this.retryTimers.clear();
    for (const channel of [...this.waiters.keys()]) this.wake(channel);
  }

  /** Nothing left to wait for: open with no command under way, no longer wanted, or stopped. */
  private settled(channel: string): boolean {
    return (
      this.stopped ||
      !this.wanted.has(channel) ||
      (this.active.has(channel) && !this.inFlight.has(channel))
    );
  }

  private wake(channel: string): void {
    if (!this.settled(channel)) return;
    const list = this.waiters.get(channel);
    if (!list) return;
    this.waiters.delete(channel);
    for (const resolve of list) resolve();
  }

  private reconcile(channel: string): void {
    if (this.stopped || this.inFlight.has(channel)) return;
    const want = this.wanted.has(channel);
    if (want === this.active.has(channel)) {
      this.clearRetry(channel);
      return;
    }
    // Refused before: the next try runs when its timer fires.
    if (this.retryTimers.has(channel)) return;
    this.inFlight.add(channel);
    (want ? this.commands.subscribe(channel) : this.commands.unsubscribe(channel)).then(
      () => {
        this.inFlight.delete(channel);
        this.clearRetry(channel);
        if (want) this.active.add(channel);
        else this.active.delete(channel);
        // Wanted otherwise while this command was under way: one more step.
        this.reconcile(channel);
        this.wake(channel);
      },
      (error: unknown) => {
        this.inFlight.delete(channel);
        if (this.stopped) return;
        if (!want) {
          // Perhaps left subscribed: its events are dropped here (no socket), and a later open
          // subscribes again (harmless if it still is).
          this.active.delete(channel);
          this.reconcile(channel);
          this.wake(channel);
          return;
        }
        const attempt = (this.attempts.get(channel) ?? 0) + 1;
        this.attempts.set(channel, attempt);
        const retryInMs = Math.min(LAST_RETRY_MS, this.firstRetryMs * 2 ** (attempt - 1));
        this.logger?.warn(
          { err: error, channel, attempt, retryInMs },
          "realtime: could not open a channel's route; its sockets wait for their confirmation",
        );
        const timer = setTimeout(() => {
          this.retryTimers.delete(channel);
          this.reconcile(channel);
        }, retryInMs);
        timer.unref();
        this.retryTimers.set(channel, timer);
      },
    );
  }

  private clearRetry(channel: string): void {
    const timer = this.retryTimers.get(channel);
    if (timer) clearTimeout(timer);
    this.retryTimers.delete(channel);
    this.attempts.delete(channel);
  }
}
