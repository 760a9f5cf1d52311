import { WebSocket } from 'ws';
import type { Subscriber } from './channel-registry.js';
import type { FrameBudget } from './frame-budget.js';
import { channelKind } from './protocol.js';

/** A socket whose unsent output grows past this is dropped (it reconnects and catches up). */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

/** Channels that only a signature (checked on subscribe) lets a socket into. */
const isAuthorizedChannel = (channel: string): boolean => {
  const kind = channelKind(channel);
  return kind === 'private' || kind === 'presence';
};

/** One socket of the embedded endpoint: its channels, sign-in, sessions and liveness. */
export class Connection implements Subscriber {
  /** channel → presence user id (undefined for non-presence channels). */
  readonly channels = new Map<string, string | undefined>();
  /** channel → the latest subscribe waiting for its route: only that one is confirmed. */
  readonly awaitedConfirmations = new Map<string, number>();
  readonly sessions = new Set<string>();
  userId: string | undefined;
  lastSeen = Date.now();
  pingSentAt: number | undefined;
  /**
   * Since when the socket has had no authorized channel and no sign-in (undefined while it has
   * one): an unauthorized socket costs memory and gets nothing, so it is closed after a while.
   */
  unauthorizedSince: number | undefined = Date.now();
  /** Set once the connection is being closed: it is out of every channel and gets nothing more. */
  closed = false;

  constructor(
    readonly id: string,
    readonly ws: WebSocket,
    /** The client's address, as counted against the per-address cap. */
    readonly address: string,
    readonly frames: FrameBudget,
  ) {}

  /** Signed in, or in a channel whose signature was checked. */
  get authorized(): boolean {
    return this.userId !== undefined || [...this.channels.keys()].some(isAuthorizedChannel);
  }

  send(frame: string): void {
    if (this.closed || this.ws.readyState !== WebSocket.OPEN) return;
    if (this.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      // A consumer that does not read: drop it rather than buffer without bound.
      this.ws.terminate();
      return;
    }
    this.ws.send(frame);
  }

  markAlive(): void {
    this.lastSeen = Date.now();
    this.pingSentAt = undefined;
  }
}

/** Closes a connection with a code and a reason (used by every part that may end one). */
export type ShutdownConnection = (conn: Connection, code: number, reason: string) => void;
