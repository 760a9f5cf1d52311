/**
 * What the harness's live clients read and write on a socket: Pusher frames, ChatMessage payloads,
 * and the timed text of the benchmark's messages, so that a receiver in any process can time a
 * send.
 */
import { createHmac } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { RawData } from 'ws';

/** A websocket message as text, whatever form `ws` hands it over in. */
export const rawText = (raw: RawData): string => {
  if (Buffer.isBuffer(raw)) return raw.toString('utf8');
  if (Array.isArray(raw)) return Buffer.concat(raw).toString('utf8');
  return Buffer.from(raw).toString('utf8');
};

/** Now as epoch ms with sub-millisecond precision, comparable across processes of the machine. */
export const nowMs = (): number => performance.timeOrigin + performance.now();

/** The subscription's auth as the server signs it: `key:hmac(socket id:channel)`. */
export const channelAuth = (
  secret: string,
  key: string,
  socketId: string,
  channel: string,
): string =>
  `${key}:${createHmac('sha256', secret).update(`${socketId}:${channel}`).digest('hex')}`;

export const subscribeFrame = (channel: string, auth: string): string =>
  JSON.stringify({ event: 'pusher:subscribe', data: { channel, auth } });

/** The answer to the server's `pusher:ping`. */
export const PONG_FRAME = '{"event":"pusher:pong","data":{}}';

/** A Pusher frame as the clients read it. */
export interface PusherFrame {
  event?: string;
  channel?: string;
  data?: unknown;
}

/** The frame in a message's text; undefined when the text is no JSON. */
export const parseFrame = (text: string): PusherFrame | undefined => {
  try {
    return JSON.parse(text) as PusherFrame;
  } catch {
    return undefined;
  }
};

export interface ChatFrame {
  id?: number;
  sender_id?: number;
  receiver_id?: number;
  messenger_user_id?: number;
  message?: string;
}

/** The message of a ChatMessage event's data (JSON text or an object); undefined without one. */
export const chatOf = (data: unknown): ChatFrame | undefined => {
  try {
    const payload = (typeof data === 'string' ? JSON.parse(data) : data) as {
      chatMessage?: ChatFrame;
    } | null;
    return payload?.chatMessage;
  } catch {
    return undefined;
  }
};

const TIMED_TEXT = /^b:(\d+):(\d+(?:\.\d+)?)/;

/** A benchmark message's text: its sequence number and send time (epoch ms), then `rest`. */
export const timedText = (seq: number, sentAt: number, rest: string): string =>
  `b:${seq}:${sentAt.toFixed(3)} ${rest}`;

/** The sequence number and send time in a benchmark message's text. */
export const readTimedText = (
  text: string | undefined,
): { seq: number; sentAt: number } | undefined => {
  const match = TIMED_TEXT.exec(text ?? '');
  return match ? { seq: Number(match[1]), sentAt: Number(match[2]) } : undefined;
};
