import { randomInt } from 'node:crypto';
import { z } from 'zod';

/**
 * Pusher Channels protocol 7: names, codes and frame shapes.
 * https://pusher.com/docs/channels/library_auth_reference/pusher-websockets-protocol/
 */

export const PROTOCOL_VERSION = 7;
/** Oldest protocol version a client may ask for (`?protocol=N` on the socket URL). */
export const MIN_PROTOCOL_VERSION = 5;

/** Anchored: channel names as Pusher accepts them. */
export const CHANNEL_NAME_PATTERN = /^[A-Za-z0-9_\-=@,.;]{1,164}$/;
/** Anchored: socket ids as `123.456`. */
export const SOCKET_ID_PATTERN = /^\d{1,20}\.\d{1,20}$/;
/** Channel a signed-in socket joins for events addressed to its user (pusher-js subscribes to it by itself). */
export const SERVER_TO_USER_PREFIX = '#server-to-user-';

export const MAX_EVENT_NAME_LENGTH = 200;
export const MAX_CHANNELS_PER_TRIGGER = 100;
export const MAX_BATCH_EVENTS = 10;
/** Size limit of `data` in one event of the HTTP trigger API (bytes of UTF-8). */
export const MAX_EVENT_DATA_BYTES = 10_240;
/** Default limit of one incoming websocket frame (bytes). */
export const DEFAULT_MAX_FRAME_BYTES = 10_240;
/** Per-connection subscription cap (bounds the memory one socket can pin). */
export const MAX_CHANNELS_PER_CONNECTION = 100;
/** Longest user id accepted in presence channel_data / user_data. */
export const MAX_USER_ID_LENGTH = 128;

/** Default limits of the endpoint (the app passes the configured ones: WS_* in config.ts). */
export const DEFAULT_MAX_CONNECTIONS = 50_000;
export const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 200;
export const DEFAULT_AUTH_TIMEOUT_SECONDS = 30;
export const DEFAULT_FRAME_RATE = { burst: 30, perSecond: 10 } as const;
/** Frames dropped in a row (over the rate) before the socket is closed: a flood, not a burst. */
export const MAX_DROPPED_FRAMES_IN_ROW = 100;

/** Close codes / pusher:error codes (4000–4099: don't reconnect, 4100–4199: back off, 4200–4299: reconnect now). */
export const CloseCode = {
  /** Frame larger than the limit (WebSocket "message too big"). */
  MessageTooBig: 1009,
  ApplicationDoesNotExist: 4001,
  UnsupportedProtocolVersion: 4007,
  /** Connection is unauthorized: failed sign-in, or its session ended (logout). */
  Unauthorized: 4009,
  /**
   * Over capacity: too many sockets (in all, or from one address), or a socket that keeps flooding
   * frames. pusher-js backs off before it reconnects.
   */
  OverCapacity: 4100,
  /** Generic reconnect immediately (server shutting down). */
  Reconnect: 4200,
  /** No reply to a ping within the pong timeout. */
  PongNotReceived: 4201,
  /**
   * No authorized subscription or sign-in for the auth timeout (Pusher's "closed after
   * inactivity"). pusher-js reconnects at once: a page whose auth call failed gets a fresh try.
   */
  AuthTimeout: 4202,
} as const;

/** pusher:error codes for errors that do not close the connection. */
export const ErrorCode = {
  /** A frame that is not JSON or not a Pusher event. */
  InvalidMessage: 4200,
  /** Client events (`client-…`) are not enabled: messages go through the HTTP API only. */
  ClientEventRejected: 4301,
  /** Frames over the socket's rate are dropped unread (Pusher's "client event rate limit reached"). */
  RateLimited: 4301,
} as const;

export type ChannelKind = 'public' | 'private' | 'presence' | 'server-to-user';

export const isValidChannelName = (name: unknown): name is string =>
  typeof name === 'string' && CHANNEL_NAME_PATTERN.test(name);

export const isValidSocketId = (socketId: unknown): socketId is string =>
  typeof socketId === 'string' && SOCKET_ID_PATTERN.test(socketId);

/** Kind of a (valid) channel name; `null` when the name is not acceptable at all. */
export const channelKind = (name: string): ChannelKind | null => {
  if (name.startsWith(SERVER_TO_USER_PREFIX)) {
    const userId = name.slice(SERVER_TO_USER_PREFIX.length);
    return userId.length > 0 && userId.length <= MAX_USER_ID_LENGTH ? 'server-to-user' : null;
  }
  if (!CHANNEL_NAME_PATTERN.test(name)) return null;
  if (name.startsWith('presence-')) return 'presence';
  if (name.startsWith('private-')) return 'private';
  return 'public';
};

/** A fresh random socket id (`^\d+\.\d+$`, ~60 bits of randomness). */
export const generateSocketId = (): string => `${randomInt(1, 2 ** 31)}.${randomInt(1, 2 ** 31)}`;

// ---------------------------------------------------------------------------
// Incoming frames (client → server)
// ---------------------------------------------------------------------------

export const incomingFrameSchema = z.object({
  event: z.string().min(1).max(MAX_EVENT_NAME_LENGTH),
  channel: z.string().optional(),
  data: z.unknown().optional(),
});
export type IncomingFrame = z.infer<typeof incomingFrameSchema>;

export const subscribeDataSchema = z.object({
  channel: z.string().min(1).max(MAX_EVENT_NAME_LENGTH),
  auth: z.string().max(512).optional(),
  channel_data: z.string().optional(),
});
export type SubscribeData = z.infer<typeof subscribeDataSchema>;

export const unsubscribeDataSchema = z.object({
  channel: z.string().min(1).max(MAX_EVENT_NAME_LENGTH),
});

export const signinDataSchema = z.object({ auth: z.string().max(512), user_data: z.string() });

/** `channel_data` of a presence subscription; numeric ids (as Laravel sends them) become strings. */
export const presenceChannelDataSchema = z.object({
  user_id: z
    .union([z.string().min(1).max(MAX_USER_ID_LENGTH), z.number().int().safe()])
    .transform((id) => String(id)),
  user_info: z.unknown().optional(),
});
export type PresenceChannelData = z.infer<typeof presenceChannelDataSchema>;

/** `user_data` of `pusher:signin`: `id` is a non-empty string, other fields are passed through. */
export const userDataSchema = z.looseObject({ id: z.string().min(1).max(MAX_USER_ID_LENGTH) });

/** pusher-js sends `data` as an object; some clients send it as a JSON string. */
export const decodeFrameData = (data: unknown): unknown => {
  if (typeof data !== 'string') return data;
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return data;
  }
};

// ---------------------------------------------------------------------------
// Outgoing frames (server → client)
// ---------------------------------------------------------------------------

/** Serializes `data` as Pusher carries it: strings as they are, anything else as JSON. */
export const toEventData = (data: unknown): string =>
  typeof data === 'string' ? data : (JSON.stringify(data ?? null) ?? 'null');

/** An event frame; `data` must already be a string (JSON text for structured payloads). */
export const encodeEvent = (event: string, data: string, channel?: string): string =>
  JSON.stringify(channel === undefined ? { event, data } : { event, channel, data });

export const encodeConnectionEstablished = (
  socketId: string,
  activityTimeoutSeconds: number,
): string =>
  encodeEvent(
    'pusher:connection_established',
    JSON.stringify({ socket_id: socketId, activity_timeout: activityTimeoutSeconds }),
  );

/** `pusher:error` carries its data as an object, not as a string. */
export const encodeError = (code: number | null, message: string): string =>
  JSON.stringify({ event: 'pusher:error', data: { code, message } });

export const encodeSubscriptionError = (channel: string, error: string, status = 401): string =>
  JSON.stringify({
    event: 'pusher:subscription_error',
    channel,
    data: { type: 'AuthError', error, status },
  });

export const PING_FRAME = encodeEvent('pusher:ping', '{}');
export const PONG_FRAME = encodeEvent('pusher:pong', '{}');
