import { createHash, createHmac } from 'node:crypto';
import { safeEqual } from '../lib/crypto.js';

/** Hex HMAC-SHA256 of `message` (UTF-8) with `secret`. */
export const hmacSha256Hex = (secret: string, message: string): string =>
  createHmac('sha256', secret).update(message, 'utf8').digest('hex');

/** Hex MD5 of a body (raw bytes, or a string taken as UTF-8). */
export const md5Hex = (body: Buffer | string): string =>
  createHash('md5').update(body).digest('hex');

/** The string signed for a channel subscription: `socket_id:channel[:channel_data]`. */
export const channelStringToSign = (
  socketId: string,
  channel: string,
  channelData?: string,
): string =>
  channelData === undefined ? `${socketId}:${channel}` : `${socketId}:${channel}:${channelData}`;

/** The string signed for user authentication: `socket_id::user::user_data`. */
export const userStringToSign = (socketId: string, userData: string): string =>
  `${socketId}::user::${userData}`;

/** `key:hex(hmac_sha256(secret, socket_id:channel[:channel_data]))` as pusher-js sends it in `auth`. */
export const signChannel = (
  credentials: { key: string; secret: string },
  socketId: string,
  channel: string,
  channelData?: string,
): string =>
  `${credentials.key}:${hmacSha256Hex(credentials.secret, channelStringToSign(socketId, channel, channelData))}`;

/** `key:hex(hmac_sha256(secret, socket_id::user::user_data))`. */
export const signUser = (
  credentials: { key: string; secret: string },
  socketId: string,
  userData: string,
): string =>
  `${credentials.key}:${hmacSha256Hex(credentials.secret, userStringToSign(socketId, userData))}`;

/** True when `auth` is the signature of this subscription for this very socket. */
export const verifyChannelAuth = (
  credentials: { key: string; secret: string },
  auth: unknown,
  socketId: string,
  channel: string,
  channelData?: string,
): boolean =>
  typeof auth === 'string' &&
  safeEqual(auth, signChannel(credentials, socketId, channel, channelData));

/** True when `auth` is the signature of this user data for this very socket. */
export const verifyUserAuth = (
  credentials: { key: string; secret: string },
  auth: unknown,
  socketId: string,
  userData: string,
): boolean =>
  typeof auth === 'string' && safeEqual(auth, signUser(credentials, socketId, userData));
