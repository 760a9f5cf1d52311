import {
  ExternalBroadcaster,
  LocalBroadcaster,
  RedisBroadcaster,
  createPusherClient,
  prepareEvent,
  type PreparedEvent,
} from './broadcaster.js';
import { channelKind, isValidSocketId } from './protocol.js';
import { PusherServer } from './pusher-server.js';
import { RedisFanout, type FanoutMessage } from './redis-fanout.js';
import { signChannel, signUser } from './signatures.js';
import { createTriggerRoutes, noTriggerRoutes } from './trigger-api.js';
import { SeenSignatures, sharedSignatureMemory, type SignatureMemory } from './trigger-replays.js';
import type { Broadcaster, Realtime, RealtimeOptions } from './types.js';

const assertSocketId = (socketId: string): void => {
  if (!isValidSocketId(socketId)) throw new TypeError('Malformed socket id.');
};

const validateOptions = (options: RealtimeOptions): void => {
  for (const field of ['appId', 'key', 'secret'] as const) {
    if (typeof options[field] !== 'string' || options[field].length === 0) {
      throw new TypeError(`Realtime option ${field} must be a non-empty string.`);
    }
  }
  if (!(options.activityTimeoutSeconds > 0) || !(options.pongTimeoutSeconds > 0)) {
    throw new TypeError('Realtime activity and pong timeouts must be positive.');
  }
  if (options.maxFrameBytes !== undefined && !(options.maxFrameBytes > 0)) {
    throw new TypeError('Realtime maxFrameBytes must be positive.');
  }
  for (const field of ['maxConnections', 'maxConnectionsPerAddress'] as const) {
    const value = options[field];
    if (value !== undefined && !(Number.isInteger(value) && value > 0)) {
      throw new TypeError(`Realtime ${field} must be a positive integer.`);
    }
  }
  if (options.authTimeoutSeconds !== undefined && !(options.authTimeoutSeconds > 0)) {
    throw new TypeError('Realtime authTimeoutSeconds must be positive.');
  }
  if (
    options.frameRate !== undefined &&
    !(options.frameRate.burst >= 1 && options.frameRate.perSecond > 0)
  ) {
    throw new TypeError('Realtime frameRate needs a burst of at least 1 and a positive rate.');
  }
};

/**
 * Builds the live channel: the embedded Pusher endpoint (with Redis fan-out when `redisUrl` is
 * set), or a client of an external Pusher-compatible service when `external` is set.
 */
export const createRealtime = (options: RealtimeOptions): Realtime => {
  validateOptions(options);
  const credentials = { key: options.key, secret: options.secret };

  const authorizeChannel: Realtime['authorizeChannel'] = (socketId, channel, presence) => {
    assertSocketId(socketId);
    const kind = channelKind(channel);
    if (kind === 'private') return { auth: signChannel(credentials, socketId, channel) };
    if (kind === 'presence') {
      if (!presence || typeof presence.user_id !== 'string' || presence.user_id.length === 0) {
        throw new TypeError('A presence channel needs the member (user_id).');
      }
      const channelData = JSON.stringify(
        presence.user_info === undefined
          ? { user_id: presence.user_id }
          : { user_id: presence.user_id, user_info: presence.user_info },
      );
      return {
        auth: signChannel(credentials, socketId, channel, channelData),
        channel_data: channelData,
      };
    }
    throw new TypeError('Only private-… and presence-… channels are authorized.');
  };

  const authenticateUser: Realtime['authenticateUser'] = (socketId, user) => {
    assertSocketId(socketId);
    if (typeof user.id !== 'string' || user.id.length === 0)
      throw new TypeError('The user needs a non-empty id.');
    const userData = JSON.stringify(user);
    return { auth: signUser(credentials, socketId, userData), user_data: userData };
  };

  if (options.external) {
    const broadcaster = new ExternalBroadcaster(
      createPusherClient({ appId: options.appId, ...credentials }, options.external),
    );
    return {
      broadcaster,
      attach: () => undefined,
      triggerRoutes: noTriggerRoutes,
      authorizeChannel,
      authenticateUser,
      // The hosted service owns the sockets: sessions cannot be tied to them from here.
      bindSocketToSession: () => undefined,
      closeSessionSockets: async () => undefined,
      closeSockets: async () => undefined,
      close: async () => undefined,
      connectionCount: () => 0,
      deliveredCount: () => 0,
      fanoutReceivedCount: () => 0,
      routedChannelCount: () => null,
      ready: async () => undefined,
      onOccupancy: () => undefined,
    };
  }

  const logger = options.logger;
  const endpoint = new PusherServer({
    key: options.key,
    secret: options.secret,
    allowedOrigins: options.allowedOrigins,
    activityTimeoutSeconds: options.activityTimeoutSeconds,
    pongTimeoutSeconds: options.pongTimeoutSeconds,
    maxFrameBytes: options.maxFrameBytes,
    maxConnections: options.maxConnections,
    maxConnectionsPerAddress: options.maxConnectionsPerAddress,
    admission: options.admission,
    trustProxy: options.trustProxy,
    authTimeoutSeconds: options.authTimeoutSeconds,
    frameRate: options.frameRate,
    allowPublicChannels: options.allowPublicChannels,
    logger,
  });

  let fanout: RedisFanout | undefined;
  let deliver: (prepared: PreparedEvent) => Promise<void>;
  let broadcaster: Broadcaster;
  // Trigger signatures already used: in this process, and in Redis when instances share it.
  let signatures: SignatureMemory = new SeenSignatures();
  const redisPrefix = options.redisPrefix ?? `realtime:${options.appId}`;
  if (options.redisUrl) {
    const onMessage = (message: FanoutMessage): void => {
      switch (message.t) {
        case 'event':
          endpoint.deliver(message.channels, message.event, message.data, message.except);
          return;
        case 'close-session':
          endpoint.closeSession(message.sessionKey);
          return;
        case 'bind':
          endpoint.bindSession(message.socketId, message.sessionKey);
          return;
        case 'resync':
          resyncSockets('an instance could not publish some events while Redis was down');
          return;
      }
    };
    const resyncSockets = (why: string) => {
      const count = endpoint.reconnectAll('Live events may have been missed');
      logger?.info({ sockets: count, why }, 'realtime: sockets told to reconnect and catch up');
    };
    fanout = new RedisFanout({
      url: options.redisUrl,
      channel: `${redisPrefix}:fanout`,
      routing: options.routing ?? 'per-user',
      onMessage,
      logger,
      // Events published while the subscription was down never reached this instance's sockets:
      // make them reconnect, so that every page catches up (the server keeps no history).
      onResubscribed: () => resyncSockets('the fan-out subscription was restored'),
    });
    endpoint.useRoutes(fanout.routes);
    signatures = sharedSignatureMemory(new SeenSignatures(), fanout, `${redisPrefix}:trigger-sig:`);
    const redisBroadcaster = new RedisBroadcaster(fanout);
    broadcaster = redisBroadcaster;
    deliver = (prepared) => redisBroadcaster.deliver(prepared);
  } else {
    const localBroadcaster = new LocalBroadcaster(endpoint);
    broadcaster = localBroadcaster;
    deliver = async (prepared) => localBroadcaster.deliver(prepared);
  }

  let closing: Promise<void> | undefined;

  return {
    broadcaster,
    attach: (server) => endpoint.attach(server),
    triggerRoutes: createTriggerRoutes({
      appId: options.appId,
      key: options.key,
      secret: options.secret,
      deliver: (event) =>
        deliver(prepareEvent(event.channels, event.name, event.data, event.socketId)),
      signatures,
      logger,
    }),
    authorizeChannel,
    authenticateUser,
    bindSocketToSession: (socketId, sessionKey) => {
      if (!isValidSocketId(socketId) || sessionKey.length === 0) return;
      if (endpoint.bindSession(socketId, sessionKey) || !fanout) return;
      // The socket is on another instance: tell it.
      fanout.publish({ t: 'bind', socketId, sessionKey }).catch((error: unknown) => {
        logger?.warn({ err: error }, 'realtime: could not share a socket-session binding');
      });
    },
    closeSessionSockets: async (sessionKey) => {
      endpoint.closeSession(sessionKey);
      if (fanout) await fanout.publish({ t: 'close-session', sessionKey });
    },
    closeSockets: () => endpoint.close(),
    close: () => {
      closing ??= (async () => {
        await endpoint.close();
        await fanout?.close();
      })();
      return closing;
    },
    connectionCount: () => endpoint.connectionCount(),
    deliveredCount: () => endpoint.deliveredFrames,
    fanoutReceivedCount: () => fanout?.receivedEvents ?? 0,
    routedChannelCount: () => fanout?.routes.activeCount() ?? null,
    ready: async () => {
      await fanout?.ready();
    },
    onOccupancy: (listener) => {
      endpoint.onOccupancy = listener;
    },
  };
};
