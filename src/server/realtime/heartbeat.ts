import { WebSocket } from 'ws';
import type { Connection, ShutdownConnection } from './connection.js';
import { CloseCode, PING_FRAME, encodeError } from './protocol.js';

export interface HeartbeatTimeouts {
  activityMs: number;
  pongMs: number;
  authMs: number;
}

/** The endpoint's liveness timer: pings silent sockets, closes dead and unauthorized ones. */
export class Heartbeat {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly connections: ReadonlyMap<string, Connection>,
    private readonly timeouts: HeartbeatTimeouts,
    private readonly shutdown: ShutdownConnection,
  ) {}

  start(): void {
    if (this.timer) return;
    const { activityMs, pongMs, authMs } = this.timeouts;
    const tickMs = Math.max(100, Math.min(5_000, Math.min(activityMs, pongMs, authMs) / 4));
    this.timer = setInterval(() => this.checkLiveness(), tickMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * Closes (4202) sockets left without authorization for the auth timeout; pings sockets silent for
   * activity_timeout; closes (4201) those that did not answer within the pong timeout.
   */
  private checkLiveness(): void {
    const now = Date.now();
    const { activityMs, pongMs, authMs } = this.timeouts;
    for (const conn of this.connections.values()) {
      if (conn.unauthorizedSince !== undefined && now - conn.unauthorizedSince >= authMs) {
        conn.send(
          encodeError(
            CloseCode.AuthTimeout,
            'No authorized subscription: reconnect and try again.',
          ),
        );
        this.shutdown(conn, CloseCode.AuthTimeout, 'No authorized subscription');
      } else if (conn.pingSentAt !== undefined) {
        if (now - conn.pingSentAt >= pongMs) {
          this.shutdown(conn, CloseCode.PongNotReceived, 'Pong reply not received');
        }
      } else if (now - conn.lastSeen >= activityMs) {
        conn.pingSentAt = now;
        conn.send(PING_FRAME);
        if (conn.ws.readyState === WebSocket.OPEN) conn.ws.ping();
      }
    }
  }
}
