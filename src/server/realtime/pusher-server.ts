import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { clientAddressResolver } from '../lib/client-address.js';
import type { ChannelRoutes } from './channel-routes.js';
import { ChannelRegistry, type OccupancyListener } from './channel-registry.js';
import { ChannelSubscriptions } from './channel-subscriptions.js';
import { Connection } from './connection.js';
import { createConnectionCounter, type ConnectionAdmission } from './connection-admission.js';
import { FrameBudget } from './frame-budget.js';
import { Heartbeat } from './heartbeat.js';
import { IncomingFrames } from './incoming-frames.js';
import {
  CloseCode,
  DEFAULT_AUTH_TIMEOUT_SECONDS,
  DEFAULT_FRAME_RATE,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
  DEFAULT_MAX_FRAME_BYTES,
  encodeConnectionEstablished,
  encodeEvent,
  encodeError,
  generateSocketId,
} from './protocol.js';
import { SessionSockets } from './session-sockets.js';
import type { RealtimeLogger, RealtimeOptions } from './types.js';
import {
  CLOSE_GRACE_MS,
  SOCKET_PATH_PREFIX,
  handshakeRefusal,
  normalizeOrigin,
  refuseSocket,
  rejectUpgrade,
} from './websocket-upgrade.js';

export { SOCKET_PATH_PREFIX } from './websocket-upgrade.js';

/** The embedded endpoint's part of the realtime options (no app id, Redis or hosted service). */
export type PusherServerOptions = Omit<
  RealtimeOptions,
  'appId' | 'redisUrl' | 'redisPrefix' | 'external'
>;

/**
 * The embedded Pusher Channels (protocol 7) websocket endpoint: handshake, admission, the
 * sockets' lifecycle and local delivery. A socket's frames go to `IncomingFrames`, its
 * subscriptions and sign-in to `ChannelSubscriptions`, its liveness to `Heartbeat`.
 */
export class PusherServer {
  private readonly wss: WebSocketServer;
  private readonly credentials: { key: string; secret: string };
  private readonly allowedOrigins: Set<string>;
  private readonly activityTimeoutSeconds: number;
  private readonly admission: ConnectionAdmission;
  private readonly frameRate: { burst: number; perSecond: number };
  private readonly addressOf: (req: IncomingMessage) => string;
  private readonly logger: RealtimeLogger | undefined;
  private readonly connections = new Map<string, Connection>();
  /** Every upgraded socket until it is fully closed (including ones being closed). */
  private readonly sockets = new Set<WebSocket>();
  private readonly registry = new ChannelRegistry<Connection>();
  private readonly subscriptions: ChannelSubscriptions;
  private readonly frames: IncomingFrames;
  private readonly heartbeat: Heartbeat;

  private occupancyListener: OccupancyListener | undefined;
  /** With Redis: each channel's route, opened and closed with the channels held here. */
  private routes: ChannelRoutes | undefined;

  /** Told when a channel gets its first socket on this instance and when it loses its last. */
  set onOccupancy(listener: OccupancyListener | undefined) {
    this.occupancyListener = listener;
  }

  /**
   * Routes a channel's events to this instance while it holds a socket on it; a subscription is
   * confirmed once the route is open, so that a page that loads after the confirmation misses
   * nothing published since.
   */
  useRoutes(routes: ChannelRoutes): void {
    this.routes = routes;
  }
  private readonly sessions = new SessionSockets();
  private readonly attachments = new Map<
    Server,
    {
      listener: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
      restoreClose: () => void;
    }
  >();
  private closing: Promise<void> | undefined;

  constructor(options: PusherServerOptions) {
    this.credentials = { key: options.key, secret: options.secret };
    this.allowedOrigins = new Set(options.allowedOrigins.map(normalizeOrigin));
    this.admission =
      options.admission ??
      createConnectionCounter({
        maxConnections: options.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
        maxConnectionsPerAddress:
          options.maxConnectionsPerAddress ?? DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
      });
    this.frameRate = options.frameRate ?? DEFAULT_FRAME_RATE;
    // Compiled now, so that a malformed proxy address fails at start rather than on an upgrade.
    this.addressOf = clientAddressResolver(options.trustProxy ?? false);
    this.logger = options.logger;
    this.activityTimeoutSeconds = options.activityTimeoutSeconds;
    this.registry.onOccupancy = (channel, occupied) => {
      if (occupied) this.routes?.open(channel);
      else this.routes?.close(channel);
      this.occupancyListener?.(channel, occupied);
    };
    const shutdown = (conn: Connection, code: number, reason: string) =>
      this.shutdown(conn, code, reason);
    this.subscriptions = new ChannelSubscriptions({
      credentials: this.credentials,
      allowPublicChannels: options.allowPublicChannels ?? false,
      registry: this.registry,
      routes: () => this.routes,
      logger: this.logger,
      shutdown,
    });
    this.frames = new IncomingFrames(this.subscriptions, shutdown, this.logger);
    this.heartbeat = new Heartbeat(
      this.connections,
      {
        activityMs: options.activityTimeoutSeconds * 1000,
        pongMs: options.pongTimeoutSeconds * 1000,
        authMs: (options.authTimeoutSeconds ?? DEFAULT_AUTH_TIMEOUT_SECONDS) * 1000,
      },
      shutdown,
    );
    this.wss = new WebSocketServer({
      noServer: true,
      clientTracking: false,
      perMessageDeflate: false,
      maxPayload: options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES,
    });
  }

  /**
   * Handles `upgrade` requests for `/app/…` on this server (other paths are left to other
   * listeners). Closing the http server (`server.close()`, as Fastify's `app.close()` does) also
   * shuts the endpoint down (4200 to every socket): otherwise open websockets would keep the
   * server's close from ever completing.
   */
  attach(server: Server): void {
    if (this.closing || this.attachments.has(server)) return;
    const listener = (req: IncomingMessage, socket: Duplex, head: Buffer) =>
      this.onUpgrade(server, req, socket, head);
    const ownClose = Object.getOwnPropertyDescriptor(server, 'close');
    const originalClose = server.close.bind(server);
    const close = ((callback?: (error?: Error) => void) => {
      void this.close();
      return originalClose(callback);
    }) as Server['close'];
    server.close = close;
    this.attachments.set(server, {
      listener,
      restoreClose: () => {
        if (server.close !== close) return;
        if (ownClose) Object.defineProperty(server, 'close', ownClose);
        else delete (server as { close?: unknown }).close;
      },
    });
    server.on('upgrade', listener);
    this.heartbeat.start();
  }

  connectionCount(): number {
    return this.connections.size;
  }

  /** Event frames written to sockets so far (metrics). */
  deliveredFrames = 0;

  /** Sends one event to the local subscribers of each channel, except one socket. One frame per channel. */
  deliver(channels: readonly string[], event: string, data: string, exceptSocketId?: string): void {
    for (const channel of channels) {
      const subscribers = this.registry.subscribers(channel);
      if (!subscribers || subscribers.size === 0) continue;
      const frame = encodeEvent(event, data, channel);
      for (const subscriber of subscribers) {
        if (subscriber.id === exceptSocketId) continue;
        subscriber.send(frame);
        this.deliveredFrames += 1;
      }
    }
  }

  /** Records that a local socket was authorized by a session; false when the socket is not here. */
  bindSession(socketId: string, sessionKey: string): boolean {
    const conn = this.connections.get(socketId);
    if (!conn) return false;
    this.sessions.bind(conn, sessionKey);
    return true;
  }

  hasSocket(socketId: string): boolean {
    return this.connections.has(socketId);
  }

  /** Closes (4009) the local sockets bound to a session; returns how many. */
  closeSession(sessionKey: string): number {
    const conns = this.sessions.socketsOf(sessionKey);
    if (!conns) return 0;
    for (const conn of conns) {
      conn.send(encodeError(CloseCode.Unauthorized, 'The session ended.'));
      this.shutdown(conn, CloseCode.Unauthorized, 'Session ended');
    }
    return conns.length;
  }

  /**
   * Closes every socket with 4200: pusher-js reconnects at once and re-subscribes, and the page
   * catches up. Used when this instance may have missed events (its Redis subscription was cut).
   * Returns how many sockets were closed.
   */
  reconnectAll(reason: string): number {
    const conns = [...this.connections.values()];
    for (const conn of conns) this.shutdown(conn, CloseCode.Reconnect, reason);
    return conns.length;
  }

  /** Graceful shutdown: every socket gets 4200; resolves when all are closed. */
  close(): Promise<void> {
    this.closing ??= this.doClose();
    return this.closing;
  }

  private async doClose(): Promise<void> {
    this.heartbeat.stop();
    for (const conn of [...this.connections.values()]) {
      this.shutdown(conn, CloseCode.Reconnect, 'Server shutting down');
    }
    await Promise.all(
      [...this.sockets].map(
        (ws) =>
          new Promise<void>((resolve) => {
            if (ws.readyState === WebSocket.CLOSED) return resolve();
            ws.once('close', () => resolve());
            if (ws.readyState === WebSocket.OPEN)
              ws.close(CloseCode.Reconnect, 'Server shutting down');
          }),
      ),
    );
    for (const [server, { listener, restoreClose }] of this.attachments) {
      server.off('upgrade', listener);
      restoreClose();
    }
    this.attachments.clear();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  // -------------------------------------------------------------------------
  // Upgrade and handshake
  // -------------------------------------------------------------------------

  private onUpgrade(server: Server, req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const pathname = q === -1 ? url : url.slice(0, q);
    if (!pathname.startsWith(SOCKET_PATH_PREFIX)) {
      // Not ours. If nobody else listens, answer instead of leaving the socket hanging.
      if (server.listenerCount('upgrade') <= 1) rejectUpgrade(socket, 404, 'Not Found');
      return;
    }
    if (this.closing) return rejectUpgrade(socket, 503, 'Service Unavailable');
    const origin = req.headers.origin;
    if (origin !== undefined && !this.allowedOrigins.has(normalizeOrigin(origin))) {
      this.logger?.info({ origin }, 'realtime: websocket from a foreign origin refused');
      return rejectUpgrade(socket, 403, 'Forbidden');
    }
    const appKey = pathname.slice(SOCKET_PATH_PREFIX.length);
    const query = new URLSearchParams(q === -1 ? '' : url.slice(q + 1));
    const address = this.addressOf(req);
    this.wss.handleUpgrade(req, socket, head, (ws) =>
      this.onConnection(ws, appKey, query, address),
    );
  }

  private onConnection(
    ws: WebSocket,
    appKey: string,
    query: URLSearchParams,
    address: string,
  ): void {
    this.sockets.add(ws);
    ws.once('close', () => this.sockets.delete(ws));
    ws.on('error', (error) => this.logger?.info({ err: error }, 'realtime: websocket error'));

    const refusal = handshakeRefusal(appKey, query, this.credentials.key);
    if (refusal) return refuseSocket(ws, refusal.code, refusal.message);
    if (this.closing) return refuseSocket(ws, CloseCode.Reconnect, 'Server shutting down');
    // Over a cap the upgrade still succeeds: pusher-js understands a 4100 close (it backs off and
    // retries), while a refused upgrade looks like a network failure to it.
    const admitted = this.admission.admit(address);
    if (typeof admitted === 'boolean') return this.afterAdmission(ws, address, admitted);
    // Asked of a cluster's primary: the client says nothing before connection_established.
    admitted.then(
      (yes) => this.afterAdmission(ws, address, yes),
      (error: unknown) => {
        this.logger?.warn({ err: error }, 'realtime: admission unanswered, socket refused');
        this.afterAdmission(ws, address, false);
      },
    );
  }

  private afterAdmission(ws: WebSocket, address: string, admitted: boolean): void {
    if (!admitted) {
      this.logger?.info(
        { address, here: this.connections.size },
        'realtime: websocket refused, over capacity',
      );
      return refuseSocket(ws, CloseCode.OverCapacity, 'Over capacity');
    }
    // Gone while it waited, or the server began to close meanwhile: the count is handed back.
    if (ws.readyState !== WebSocket.OPEN || this.closing) {
      this.admission.release(address);
      if (this.closing) refuseSocket(ws, CloseCode.Reconnect, 'Server shutting down');
      return;
    }

    let socketId = generateSocketId();
    while (this.connections.has(socketId)) socketId = generateSocketId();
    const conn = new Connection(
      socketId,
      ws,
      address,
      new FrameBudget(this.frameRate.burst, this.frameRate.perSecond),
    );
    this.connections.set(socketId, conn);

    ws.on('message', (data, isBinary) => this.frames.onMessage(conn, data, isBinary));
    ws.on('pong', () => conn.markAlive());
    ws.on('ping', () => conn.markAlive());
    ws.on('close', () => this.cleanup(conn));
    conn.send(encodeConnectionEstablished(socketId, this.activityTimeoutSeconds));
  }

  // -------------------------------------------------------------------------
  // Lifecycle
  // -------------------------------------------------------------------------

  /** Stops delivering to a connection at once and closes it (destroyed if the peer does not answer). */
  private shutdown(conn: Connection, code: number, reason: string): void {
    if (conn.closed) return;
    this.cleanup(conn);
    const { ws } = conn;
    if (ws.readyState === WebSocket.CLOSED) return;
    const timer = setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
    ws.once('close', () => clearTimeout(timer));
    ws.close(code, reason);
  }

  private cleanup(conn: Connection): void {
    if (conn.closed) return;
    conn.closed = true;
    this.connections.delete(conn.id);
    this.admission.release(conn.address);
    for (const channel of [...conn.channels.keys()]) this.subscriptions.leave(conn, channel);
    this.sessions.unbind(conn);
  }
}
