import { jsonOrUndefined } from '../lib/json.js';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { clientAddressResolver } from '../lib/client-address.js';
import { safeEqual } from '../lib/crypto.js';
import type { ChannelRoutes } from './channel-routes.js';
import { ChannelRegistry, type OccupancyListener, type Subscriber } from './channel-registry.js';
import { createConnectionCounter, type ConnectionAdmission } from './connection-admission.js';
import { FrameBudget } from './frame-budget.js';
import {
  CloseCode,
  DEFAULT_AUTH_TIMEOUT_SECONDS,
  DEFAULT_FRAME_RATE,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
  DEFAULT_MAX_FRAME_BYTES,
  ErrorCode,
  MAX_CHANNELS_PER_CONNECTION,
  MAX_DROPPED_FRAMES_IN_ROW,
  MIN_PROTOCOL_VERSION,
  PING_FRAME,
  PONG_FRAME,
  SERVER_TO_USER_PREFIX,
  channelKind,
  decodeFrameData,
  encodeConnectionEstablished,
  encodeError,
  encodeEvent,
  encodeSubscriptionError,
  generateSocketId,
  incomingFrameSchema,
  presenceChannelDataSchema,
  signinDataSchema,
  subscribeDataSchema,
  unsubscribeDataSchema,
  userDataSchema,
} from './protocol.js';
import { verifyChannelAuth, verifyUserAuth } from './signatures.js';
import type { RealtimeLogger, RealtimeOptions } from './types.js';

/** The websocket path prefix: `/app/{key}`. */
export const SOCKET_PATH_PREFIX = '/app/';
/** A socket whose unsent output grows past this is dropped (it reconnects and catches up). */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/** After sending a close frame, how long the peer has to answer before the socket is destroyed. */
const CLOSE_GRACE_MS = 3_000;

/** The embedded endpoint's part of the realtime options (no app id, Redis or hosted service). */
export type PusherServerOptions = Omit<
  RealtimeOptions,
  'appId' | 'redisUrl' | 'redisPrefix' | 'external'
>;

/** Channels that only a signature (checked on subscribe) lets a socket into. */
const isAuthorizedChannel = (channel: string): boolean => {
  const kind = channelKind(channel);
  return kind === 'private' || kind === 'presence';
};

class Connection implements Subscriber {
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

const rawToString = (data: RawData): string => {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
};

/** Answers an upgrade request with a plain HTTP error and drops the socket. */
const rejectUpgrade = (socket: Duplex, status: number, statusText: string): void => {
  socket.on('error', () => socket.destroy());
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = `${statusText}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${statusText}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  socket.once('finish', () => socket.destroy());
  setTimeout(() => socket.destroy(), 1_000).unref();
};

const normalizeOrigin = (origin: string): string => origin.trim().replace(/\/+$/, '').toLowerCase();

/**
 * The embedded Pusher Channels (protocol 7) websocket endpoint: handshake, subscriptions with
 * signature checks, presence, sign-in, heartbeat, and local delivery.
 */
export class PusherServer {
  private readonly wss: WebSocketServer;
  private readonly credentials: { key: string; secret: string };
  private readonly allowedOrigins: Set<string>;
  private readonly activityTimeoutSeconds: number;
  private readonly activityMs: number;
  private readonly pongMs: number;
  private readonly authMs: number;
  private readonly admission: ConnectionAdmission;
  private readonly frameRate: { burst: number; perSecond: number };
  private readonly allowPublicChannels: boolean;
  private readonly addressOf: (req: IncomingMessage) => string;
  private readonly logger: RealtimeLogger | undefined;
  private readonly connections = new Map<string, Connection>();
  /** Open connections per client address (entries at 0 are removed). */
  /** Every upgraded socket until it is fully closed (including ones being closed). */
  private readonly sockets = new Set<WebSocket>();
  private readonly registry = new ChannelRegistry<Connection>();

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
  private readonly sessions = new Map<string, Set<Connection>>();
  private readonly attachments = new Map<
    Server,
    {
      listener: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
      restoreClose: () => void;
    }
  >();
  private heartbeat: NodeJS.Timeout | undefined;
  private closing: Promise<void> | undefined;

  constructor(options: PusherServerOptions) {
    this.credentials = { key: options.key, secret: options.secret };
    this.allowedOrigins = new Set(options.allowedOrigins.map(normalizeOrigin));
    this.activityMs = options.activityTimeoutSeconds * 1000;
    this.pongMs = options.pongTimeoutSeconds * 1000;
    this.authMs = (options.authTimeoutSeconds ?? DEFAULT_AUTH_TIMEOUT_SECONDS) * 1000;
    this.admission =
      options.admission ??
      createConnectionCounter({
        maxConnections: options.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
        maxConnectionsPerAddress:
          options.maxConnectionsPerAddress ?? DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
      });
    this.frameRate = options.frameRate ?? DEFAULT_FRAME_RATE;
    this.allowPublicChannels = options.allowPublicChannels ?? false;
    // Compiled now, so that a malformed proxy address fails at start rather than on an upgrade.
    this.addressOf = clientAddressResolver(options.trustProxy ?? false);
    this.logger = options.logger;
    this.activityTimeoutSeconds = options.activityTimeoutSeconds;
    this.registry.onOccupancy = (channel, occupied) => {
      if (occupied) this.routes?.open(channel);
      else this.routes?.close(channel);
      this.occupancyListener?.(channel, occupied);
    };
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
    this.startHeartbeat();
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
    conn.sessions.add(sessionKey);
    let set = this.sessions.get(sessionKey);
    if (!set) {
      set = new Set();
      this.sessions.set(sessionKey, set);
    }
    set.add(conn);
    return true;
  }

  hasSocket(socketId: string): boolean {
    return this.connections.has(socketId);
  }

  /** Closes (4009) the local sockets bound to a session; returns how many. */
  closeSession(sessionKey: string): number {
    const set = this.sessions.get(sessionKey);
    if (!set) return 0;
    const conns = [...set];
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
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
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

    if (!safeEqual(appKey, this.credentials.key)) {
      return this.refuse(ws, CloseCode.ApplicationDoesNotExist, 'Application does not exist');
    }
    const protocol = query.get('protocol');
    if (
      protocol !== null &&
      !(/^\d{1,3}$/.test(protocol) && Number(protocol) >= MIN_PROTOCOL_VERSION)
    ) {
      return this.refuse(ws, CloseCode.UnsupportedProtocolVersion, 'Unsupported protocol version');
    }
    if (this.closing) return this.refuse(ws, CloseCode.Reconnect, 'Server shutting down');
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
      return this.refuse(ws, CloseCode.OverCapacity, 'Over capacity');
    }
    // Gone while it waited, or the server began to close meanwhile: the count is handed back.
    if (ws.readyState !== WebSocket.OPEN || this.closing) {
      this.admission.release(address);
      if (this.closing) this.refuse(ws, CloseCode.Reconnect, 'Server shutting down');
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

    ws.on('message', (data, isBinary) => this.onMessage(conn, data, isBinary));
    ws.on('pong', () => conn.markAlive());
    ws.on('ping', () => conn.markAlive());
    ws.on('close', () => this.cleanup(conn));
    conn.send(encodeConnectionEstablished(socketId, this.activityTimeoutSeconds));
  }

  private refuse(ws: WebSocket, code: number, message: string): void {
    ws.send(encodeError(code, message));
    ws.close(code, message);
    setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
  }

  // -------------------------------------------------------------------------
  // Frames
  // -------------------------------------------------------------------------

  private onMessage(conn: Connection, data: RawData, isBinary: boolean): void {
    conn.markAlive();
    if (conn.closed) return;
    // Over the rate, a frame is dropped before it is read: a flood costs no parsing.
    if (!conn.frames.take()) return this.dropFrame(conn);
    if (isBinary)
      return conn.send(encodeError(ErrorCode.InvalidMessage, 'Binary frames are not supported.'));
    let json: unknown;
    try {
      json = JSON.parse(rawToString(data));
    } catch {
      return conn.send(encodeError(ErrorCode.InvalidMessage, 'The frame is not valid JSON.'));
    }
    const frame = incomingFrameSchema.safeParse(json);
    if (!frame.success)
      return conn.send(encodeError(ErrorCode.InvalidMessage, 'The frame is not a Pusher event.'));
    const { event } = frame.data;
    switch (event) {
      case 'pusher:ping':
        return conn.send(PONG_FRAME);
      case 'pusher:pong':
        return;
      case 'pusher:subscribe':
        return this.subscribe(conn, decodeFrameData(frame.data.data));
      case 'pusher:unsubscribe': {
        const parsed = unsubscribeDataSchema.safeParse(decodeFrameData(frame.data.data));
        if (!parsed.success)
          return conn.send(encodeError(ErrorCode.InvalidMessage, 'Invalid unsubscribe data.'));
        if (conn.channels.has(parsed.data.channel)) this.leave(conn, parsed.data.channel);
        return;
      }
      case 'pusher:signin':
        return this.signin(conn, decodeFrameData(frame.data.data));
      default:
        break;
    }
    if (event.startsWith('client-')) {
      return conn.send(
        encodeError(
          ErrorCode.ClientEventRejected,
          'Client events are not enabled: send messages through the HTTP API.',
        ),
      );
    }
    conn.send(encodeError(ErrorCode.InvalidMessage, 'Unsupported event.'));
  }

  /** The first frame dropped in a row is answered (4301); a long run of them closes the socket (4100). */
  private dropFrame(conn: Connection): void {
    const dropped = conn.frames.droppedInRow;
    if (dropped === 1) {
      conn.send(encodeError(ErrorCode.RateLimited, 'Client event rate limit reached'));
    } else if (dropped >= MAX_DROPPED_FRAMES_IN_ROW) {
      this.logger?.info(
        { socketId: conn.id, address: conn.address },
        'realtime: websocket closed for flooding frames',
      );
      conn.send(encodeError(CloseCode.OverCapacity, 'Over capacity: too many frames.'));
      this.shutdown(conn, CloseCode.OverCapacity, 'Over capacity');
    }
  }

  private subscribe(conn: Connection, data: unknown): void {
    const parsed = subscribeDataSchema.safeParse(data);
    if (!parsed.success)
      return conn.send(encodeError(ErrorCode.InvalidMessage, 'Invalid subscribe data.'));
    const { channel, auth, channel_data: channelData } = parsed.data;
    const kind = channelKind(channel);
    if (kind === null)
      return conn.send(encodeSubscriptionError(channel, 'Invalid channel name.', 400));

    if (conn.channels.has(channel)) {
      // Already subscribed: confirm again, change nothing.
      return this.confirmSubscription(conn, channel, kind === 'presence');
    }
    if (conn.channels.size >= MAX_CHANNELS_PER_CONNECTION) {
      return conn.send(
        encodeSubscriptionError(channel, 'Too many channels on this connection.', 429),
      );
    }

    switch (kind) {
      case 'public':
        // Open to any socket without a signature: each would pin memory and keep its socket alive.
        if (!this.allowPublicChannels) {
          return this.refuseSubscription(conn, channel, 'Public channels are not enabled.', 403);
        }
        break;
      case 'private':
        if (!verifyChannelAuth(this.credentials, auth, conn.id, channel)) {
          return this.refuseSubscription(conn, channel, 'Invalid signature.');
        }
        conn.unauthorizedSince = undefined;
        break;
      case 'server-to-user':
        if (conn.userId === undefined || channel !== `${SERVER_TO_USER_PREFIX}${conn.userId}`) {
          return this.refuseSubscription(conn, channel, 'Not signed in as this user.');
        }
        break;
      case 'presence': {
        if (
          channelData === undefined ||
          !verifyChannelAuth(this.credentials, auth, conn.id, channel, channelData)
        ) {
          return this.refuseSubscription(conn, channel, 'Invalid signature.');
        }
        const presence = presenceChannelDataSchema.safeParse(jsonOrUndefined(channelData));
        if (!presence.success)
          return this.refuseSubscription(conn, channel, 'Invalid channel_data.', 400);
        const { user_id: userId, user_info: userInfo } = presence.data;
        conn.unauthorizedSince = undefined;
        conn.channels.set(channel, userId);
        const { added } = this.registry.addPresence(channel, conn, userId, userInfo);
        this.confirmSubscription(conn, channel, true);
        if (added) {
          const frame = encodeEvent(
            'pusher_internal:member_added',
            JSON.stringify(
              userInfo === undefined
                ? { user_id: userId }
                : { user_id: userId, user_info: userInfo },
            ),
            channel,
          );
          for (const other of this.registry.subscribers(channel) ?? []) {
            if (other !== conn) other.send(frame);
          }
        }
        return;
      }
    }
    conn.channels.set(channel, undefined);
    this.registry.add(channel, conn);
    this.confirmSubscription(conn, channel, false);
  }

  /** `subscription_succeeded` once the channel's events reach this instance. */
  private confirmSubscription(conn: Connection, channel: string, presence: boolean): void {
    const routed = this.routes?.whenOpen(channel);
    if (!routed) {
      conn.awaitedConfirmations.delete(channel);
      return conn.send(this.subscriptionSucceeded(channel, presence));
    }
    // subscribe, unsubscribe, subscribe while the route opens: one confirmation, the last one's
    const ticket = (conn.awaitedConfirmations.get(channel) ?? 0) + 1;
    conn.awaitedConfirmations.set(channel, ticket);
    void routed.then(() => {
      if (conn.awaitedConfirmations.get(channel) !== ticket) return;
      conn.awaitedConfirmations.delete(channel);
      if (!conn.closed && conn.channels.has(channel))
        conn.send(this.subscriptionSucceeded(channel, presence));
    });
  }

  private subscriptionSucceeded(channel: string, presence: boolean): string {
    const data = presence ? JSON.stringify(this.registry.presenceSnapshot(channel)) : '{}';
    return encodeEvent('pusher_internal:subscription_succeeded', data, channel);
  }

  private refuseSubscription(conn: Connection, channel: string, error: string, status = 401): void {
    this.logger?.info({ socketId: conn.id, channel }, `realtime: subscription refused (${error})`);
    conn.send(encodeSubscriptionError(channel, error, status));
  }

  /** Takes a socket out of a channel; the last socket of a presence member makes it leave. */
  private leave(conn: Connection, channel: string): void {
    const presenceUserId = conn.channels.get(channel);
    conn.channels.delete(channel);
    // Its last authorized channel left: the auth timeout starts again.
    if (!conn.closed && conn.unauthorizedSince === undefined && !conn.authorized) {
      conn.unauthorizedSince = Date.now();
    }
    const { removedUserId } = this.registry.remove(channel, conn, presenceUserId);
    if (removedUserId !== undefined) {
      const frame = encodeEvent(
        'pusher_internal:member_removed',
        JSON.stringify({ user_id: removedUserId }),
        channel,
      );
      for (const other of this.registry.subscribers(channel) ?? []) other.send(frame);
    }
  }

  private signin(conn: Connection, data: unknown): void {
    const parsed = signinDataSchema.safeParse(data);
    if (
      !parsed.success ||
      !verifyUserAuth(this.credentials, parsed.data.auth, conn.id, parsed.data.user_data)
    ) {
      return this.refuseSignin(conn, 'Invalid signature.');
    }
    const user = userDataSchema.safeParse(jsonOrUndefined(parsed.data.user_data));
    if (!user.success)
      return this.refuseSignin(conn, 'Invalid user_data: it needs a non-empty string id.');
    if (conn.userId !== undefined && conn.userId !== user.data.id) {
      const previous = `${SERVER_TO_USER_PREFIX}${conn.userId}`;
      if (conn.channels.has(previous)) this.leave(conn, previous);
    }
    conn.userId = user.data.id;
    conn.unauthorizedSince = undefined;
    conn.send(
      encodeEvent('pusher:signin_success', JSON.stringify({ user_data: parsed.data.user_data })),
    );
  }

  private refuseSignin(conn: Connection, message: string): void {
    this.logger?.info({ socketId: conn.id }, `realtime: sign-in refused (${message})`);
    conn.send(encodeError(CloseCode.Unauthorized, message));
    this.shutdown(conn, CloseCode.Unauthorized, 'Unauthorized');
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
    for (const channel of [...conn.channels.keys()]) this.leave(conn, channel);
    for (const sessionKey of conn.sessions) {
      const set = this.sessions.get(sessionKey);
      set?.delete(conn);
      if (set?.size === 0) this.sessions.delete(sessionKey);
    }
    conn.sessions.clear();
  }

  private startHeartbeat(): void {
    if (this.heartbeat) return;
    const tickMs = Math.max(
      100,
      Math.min(5_000, Math.min(this.activityMs, this.pongMs, this.authMs) / 4),
    );
    this.heartbeat = setInterval(() => this.checkLiveness(), tickMs);
    this.heartbeat.unref();
  }

  /**
   * Closes (4202) sockets left without authorization for the auth timeout; pings sockets silent for
   * activity_timeout; closes (4201) those that did not answer within the pong timeout.
   */
  private checkLiveness(): void {
    const now = Date.now();
    for (const conn of this.connections.values()) {
      if (conn.unauthorizedSince !== undefined && now - conn.unauthorizedSince >= this.authMs) {
        conn.send(
          encodeError(
            CloseCode.AuthTimeout,
            'No authorized subscription: reconnect and try again.',
          ),
        );
        this.shutdown(conn, CloseCode.AuthTimeout, 'No authorized subscription');
      } else if (conn.pingSentAt !== undefined) {
        if (now - conn.pingSentAt >= this.pongMs) {
          this.shutdown(conn, CloseCode.PongNotReceived, 'Pong reply not received');
        }
      } else if (now - conn.lastSeen >= this.activityMs) {
        conn.pingSentAt = now;
        conn.send(PING_FRAME);
        if (conn.ws.readyState === WebSocket.OPEN) conn.ws.ping();
      }
    }
  }
}
