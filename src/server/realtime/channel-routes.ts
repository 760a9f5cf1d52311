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
   * Resolves once the channel's events reach this instance (or once that failed and was logged);
   * `undefined` when they already do, so that the caller can confirm at once.
   */
  whenOpen(channel: string): Promise<void> | undefined;
}

/** What opens and closes one route on the broker (`SSUBSCRIBE`/`SUNSUBSCRIBE` of its shard channel). */
export interface RouteCommands {
  subscribe(channel: string): Promise<unknown>;
  unsubscribe(channel: string): Promise<unknown>;
}

/**
 * Keeps the broker's subscriptions in step with the channels wanted, one command in flight per
 * channel: a socket that leaves and another that joins while a `SUNSUBSCRIBE` is under way end with
 * the channel subscribed, whatever the order of the answers.
 */
export class ShardedChannelRoutes implements ChannelRoutes {
  private readonly wanted = new Set<string>();
  private readonly active = new Set<string>();
  private readonly inFlight = new Map<string, Promise<void>>();
  private stopped = false;

  constructor(
    private readonly commands: RouteCommands,
    private readonly logger?: RealtimeLogger,
  ) {}

  open(channel: string): void {
    this.wanted.add(channel);
    this.reconcile(channel);
  }

  close(channel: string): void {
    this.wanted.delete(channel);
    this.reconcile(channel);
  }

  whenOpen(channel: string): Promise<void> | undefined {
    if (this.active.has(channel) && !this.inFlight.has(channel)) return undefined;
    return this.settle(channel);
  }

  /** Channels routed here now (for tests and the bench). */
  activeCount(): number {
    return this.active.size;
  }

  /** Stops issuing commands (the connection is closing). */
  stop(): void {
    this.stopped = true;
  }

  private async settle(channel: string): Promise<void> {
    for (;;) {
      const step = this.inFlight.get(channel);
      if (!step) return;
      await step;
    }
  }

  private reconcile(channel: string): void {
    if (this.stopped || this.inFlight.has(channel)) return;
    const want = this.wanted.has(channel);
    if (want === this.active.has(channel)) return;
    const step = (
      want ? this.commands.subscribe(channel) : this.commands.unsubscribe(channel)
    ).then(
      () => {
        if (want) this.active.add(channel);
        else this.active.delete(channel);
        this.inFlight.delete(channel);
        // Wanted otherwise while this command was under way: one more step.
        this.reconcile(channel);
      },
      (error: unknown) => {
        this.inFlight.delete(channel);
        // Not retried here: a failed command means a lost or closing connection, and a restored
        // one re-subscribes and makes every socket reconnect (which opens its routes again).
        if (!this.stopped)
          this.logger?.warn(
            { err: error, channel },
            `realtime: could not ${want ? 'open' : 'close'} a channel's route`,
          );
      },
    );
    this.inFlight.set(channel, step);
  }
}
