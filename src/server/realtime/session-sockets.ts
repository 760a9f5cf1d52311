import type { Connection } from './connection.js';

/** Which local sockets each session authorized, so that a session's end can close them. */
export class SessionSockets {
  private readonly sessions = new Map<string, Set<Connection>>();

  bind(conn: Connection, sessionKey: string): void {
    conn.sessions.add(sessionKey);
    let set = this.sessions.get(sessionKey);
    if (!set) {
      set = new Set();
      this.sessions.set(sessionKey, set);
    }
    set.add(conn);
  }

  /** The sockets bound to a session (a copy), or undefined when none ever were. */
  socketsOf(sessionKey: string): Connection[] | undefined {
    const set = this.sessions.get(sessionKey);
    return set ? [...set] : undefined;
  }

  /** Forgets a closed socket's sessions. */
  unbind(conn: Connection): void {
    for (const sessionKey of conn.sessions) {
      const set = this.sessions.get(sessionKey);
      set?.delete(conn);
      if (set?.size === 0) this.sessions.delete(sessionKey);
    }
    conn.sessions.clear();
  }
}
