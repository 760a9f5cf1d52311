import type { ConnectionAdmission } from './connection-admission.js';
import type { Server } from 'node:http';
import type { FastifyPluginAsync } from 'fastify';
import type { TrustProxy } from '../config.js';

import type { Broadcaster } from './broadcaster-port.js';

export type { Broadcaster };

export interface RealtimeLogger {
  warn(obj: unknown, msg?: string): void;
  info(obj: unknown, msg?: string): void;
}

export interface ExternalPusherOptions {
  host?: string | undefined;
  port?: number | undefined;
  scheme: 'http' | 'https';
  cluster: string;
}

/**
 * How an event reaches the instances: `per-user` sends it only to the instances holding a socket on
 * its channel (Redis sharded pub/sub, one shard channel per Pusher channel, and every product
 * channel is one user's); `broadcast` sends every event to every instance, which drops those for
 * sockets it does not hold (the older routing, kept to compare; ADR 020, docs/scaling.md).
 */
export type FanoutRouting = 'per-user' | 'broadcast';

export interface RealtimeOptions {
  appId: string;
  key: string;
  secret: string;
  /** Origin header of the websocket upgrade must be one of these (no Origin header = non-browser client: allowed). */
  allowedOrigins: string[];
  /** Sent in connection_established; the server pings sockets silent for this long. */
  activityTimeoutSeconds: number;
  /** A socket that does not answer a ping within this is closed with 4201. */
  pongTimeoutSeconds: number;
  /** When set: fan-out across instances via Redis pub/sub (ioredis). */
  redisUrl?: string | undefined;
  /** Redis pub/sub channel prefix (default `realtime:{appId}`); instances of one deployment must share it. */
  redisPrefix?: string | undefined;
  /**
   * With Redis: `per-user` (default) sends a channel's events only to the instances holding a
   * socket on it; `broadcast` sends every event to every instance.
   */
  routing?: FanoutRouting | undefined;
  /** When set: publish through the official `pusher` package to a hosted/compatible service; no embedded endpoint. */
  external?: ExternalPusherOptions | undefined;
  /** Largest incoming websocket frame in bytes (default 10 240); bigger frames close the socket with 1009. */
  maxFrameBytes?: number | undefined;
  /** Open sockets on this instance (default 50 000); one more is refused with 4100. */
  maxConnections?: number | undefined;
  /** Open sockets from one client address on this instance (default 200); one more is refused with 4100. */
  maxConnectionsPerAddress?: number | undefined;
  /**
   * Who counts sockets against those two limits: by default this process; a cluster worker asks its
   * primary, which counts for every worker of the instance.
   */
  admission?: ConnectionAdmission | undefined;
  /** Whose `X-Forwarded-For` names the client address, with Fastify's rules (default false: the socket's peer). */
  trustProxy?: TrustProxy | undefined;
  /** A socket with no authorized subscription (private/presence) and no sign-in for this long is closed with 4202 (default 30). */
  authTimeoutSeconds?: number | undefined;
  /** Incoming frames per socket (default 30 at once, 10 a second); more are dropped (4301), a flood closes it (4100). */
  frameRate?: { burst: number; perSecond: number } | undefined;
  /** Public channels (no `private-`/`presence-` prefix); default false: refused with 403. The product uses none. */
  allowPublicChannels?: boolean | undefined;
  logger?: RealtimeLogger | undefined;
}

export interface Realtime {
  broadcaster: Broadcaster;
  /** Attach the websocket endpoint `/app/{key}` to the http server (handles 'upgrade' only for that path prefix). No-op with external. */
  attach(server: Server): void;
  /** Fastify plugin registering POST /apps/:appId/events and /apps/:appId/batch_events (Pusher HTTP API). No routes with external. */
  triggerRoutes: FastifyPluginAsync;
  /** Returns the JSON body for /broadcasting/auth: {auth} for private, {auth, channel_data} for presence. Throws on a malformed socket id/channel. */
  authorizeChannel(
    socketId: string,
    channel: string,
    presence?: { user_id: string; user_info?: unknown },
  ): { auth: string; channel_data?: string };
  /** Returns the JSON body for /broadcasting/user-auth: {auth, user_data}. */
  authenticateUser(
    socketId: string,
    user: { id: string; user_info?: unknown },
  ): { auth: string; user_data: string };
  /** Remember that this socket was authorized by this session (key is opaque, e.g. a session hash). */
  bindSocketToSession(socketId: string, sessionKey: string): void;
  /** Close (4009) every socket bound to this session, on every instance (through Redis when configured). */
  closeSessionSockets(sessionKey: string): Promise<void>;
  /**
   * A stop's first step: every socket on this instance gets 4200 (its client reconnects at once,
   * elsewhere); publishing still works (Redis, a hosted service) until `close`.
   */
  closeSockets(): Promise<void>;
  /** Graceful shutdown: close every socket with 4200, stop Redis. */
  close(): Promise<void>;
  /** Open sockets on this instance (metrics, tests, benchmarks). */
  connectionCount(): number;
  /** Event frames delivered to sockets on this instance so far (0 with a hosted service). */
  deliveredCount(): number;
  /** Event messages received from the Redis fan-out so far (0 without Redis). */
  fanoutReceivedCount(): number;
  /** Channels whose shard channels this instance subscribes to (either routing); null without Redis. */
  routedChannelCount(): number | null;
  /** Resolves once the instance can deliver (Redis connected and subscribed); immediately without Redis. */
  ready(): Promise<void>;
  /**
   * Tells `listener` when a channel gets its first socket on this instance and when it loses its
   * last (presence is built on it). With a hosted service the sockets are not here: its
   * `channel_occupied`/`channel_vacated` webhooks are (`occupancyFromWebhook`).
   */
  onOccupancy(listener: (channel: string, occupied: boolean) => void): void;
}
