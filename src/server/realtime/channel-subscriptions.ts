import { jsonOrUndefined } from '../lib/json.js';
import type { ChannelRegistry } from './channel-registry.js';
import type { ChannelRoutes } from './channel-routes.js';
import type { Connection, ShutdownConnection } from './connection.js';
import {
  CloseCode,
  ErrorCode,
  MAX_CHANNELS_PER_CONNECTION,
  SERVER_TO_USER_PREFIX,
  channelKind,
  encodeError,
  encodeEvent,
  encodeSubscriptionError,
  presenceChannelDataSchema,
  signinDataSchema,
  subscribeDataSchema,
  userDataSchema,
} from './protocol.js';
import { verifyChannelAuth, verifyUserAuth } from './signatures.js';
import type { RealtimeLogger } from './types.js';

export interface ChannelSubscriptionsOptions {
  credentials: { key: string; secret: string };
  allowPublicChannels: boolean;
  registry: ChannelRegistry<Connection>;
  /** With Redis: each channel's route (set after construction, so asked for on each use). */
  routes: () => ChannelRoutes | undefined;
  logger: RealtimeLogger | undefined;
  shutdown: ShutdownConnection;
}

/**
 * A socket's subscriptions and sign-in: the signature checks, presence members joining and
 * leaving, and the confirmation once a channel's route is open.
 */
export class ChannelSubscriptions {
  private readonly credentials: { key: string; secret: string };
  private readonly allowPublicChannels: boolean;
  private readonly registry: ChannelRegistry<Connection>;
  private readonly routes: () => ChannelRoutes | undefined;
  private readonly logger: RealtimeLogger | undefined;
  private readonly shutdown: ShutdownConnection;

  constructor(options: ChannelSubscriptionsOptions) {
    this.credentials = options.credentials;
    this.allowPublicChannels = options.allowPublicChannels;
    this.registry = options.registry;
    this.routes = options.routes;
    this.logger = options.logger;
    this.shutdown = options.shutdown;
  }

  subscribe(conn: Connection, data: unknown): void {
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
    const routed = this.routes()?.whenOpen(channel);
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
  leave(conn: Connection, channel: string): void {
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

  signin(conn: Connection, data: unknown): void {
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
}
