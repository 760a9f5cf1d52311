/**
 * One raw Pusher-protocol client (plain `ws`, no deflate), as the load generators hold thousands:
 * opens, takes the socket id of `pusher:connection_established`, subscribes to one private channel
 * with the auth `auth` gives for that id, answers pings, and hands every other frame to `onFrame`.
 */
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { recordMs, type Histogram } from './histogram.js';
import {
  parseFrame,
  PONG_FRAME,
  rawText,
  subscribeFrame,
  type PusherFrame,
} from './live-frames.js';

export interface PusherRawClientOptions {
  url: string;
  channel: string;
  /** The subscription's auth for the socket id (signed here, or asked of the auth endpoint). */
  auth: (socketId: string) => Promise<string> | string;
  timeoutMs: number;
  /** The start of each failure's message (e.g. `user 12: `). */
  label: string;
  onEstablished?: (socketId: string) => void;
  /** A frame that is not the handshake's nor a ping. */
  onFrame: (frame: PusherFrame) => void;
  /** Frames to leave unparsed (counted by the caller from their text). */
  skip?: (text: string) => boolean;
  /** The socket closed after it had subscribed. */
  onClose?: () => void;
  /** Timed when reached: open → subscribed, open → established, subscribe → subscribed. */
  timings?: { total?: Histogram; established?: Histogram; subscribed?: Histogram };
}

export interface PusherRawClient {
  ws: WebSocket;
  /** Resolves once subscribed; rejects (the socket terminated) on a refusal, close or timeout. */
  subscribed: Promise<void>;
}

/** The auth of a `POST /broadcasting/auth` answer; throws unless it is a 200. */
export const authOfAnswer = (answer: { status: number; body: Buffer | string }): string => {
  const body = answer.body.toString();
  if (answer.status !== 200)
    throw new Error(`broadcasting/auth answered ${answer.status} ${body.slice(0, 200)}`);
  return (JSON.parse(body) as { auth: string }).auth;
};

export const openPusherRawClient = (options: PusherRawClientOptions): PusherRawClient => {
  const { channel, label, timings = {} } = options;
  const startedAt = performance.now();
  let subscribeSentAt = 0;
  const ws = new WebSocket(options.url, { perMessageDeflate: false });
  const subscribed = new Promise<void>((resolve, reject) => {
    let settled = false;
    let subscribedOk = false;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
        ws.terminate();
        reject(error);
        return;
      }
      const now = performance.now();
      if (timings.total) recordMs(timings.total, now - startedAt);
      if (timings.subscribed) recordMs(timings.subscribed, now - subscribeSentAt);
      subscribedOk = true;
      resolve();
    };
    const fail = (error: unknown) =>
      finish(new Error(`${label}${error instanceof Error ? error.message : String(error)}`));
    const timer = setTimeout(
      () => fail(`not subscribed within ${options.timeoutMs} ms`),
      options.timeoutMs,
    );
    ws.on('error', fail);
    ws.on('close', () => {
      if (!settled) fail('closed during the handshake');
      else if (subscribedOk) options.onClose?.();
    });
    const subscribe = async (socketId: string) => {
      const auth = await options.auth(socketId);
      subscribeSentAt = performance.now();
      ws.send(subscribeFrame(channel, auth));
    };
    ws.on('message', (raw: WebSocket.RawData) => {
      const text = rawText(raw);
      if (options.skip?.(text)) return;
      const frame = parseFrame(text);
      if (!frame) return;
      switch (frame.event) {
        case 'pusher:connection_established': {
          const socketId = (JSON.parse(String(frame.data)) as { socket_id: string }).socket_id;
          if (timings.established) recordMs(timings.established, performance.now() - startedAt);
          options.onEstablished?.(socketId);
          subscribe(socketId).catch(fail);
          return;
        }
        case 'pusher_internal:subscription_succeeded':
          if (frame.channel === channel) finish();
          return;
        case 'pusher:subscription_error':
        case 'pusher:error':
          fail(`subscription refused: ${JSON.stringify(frame.data)}`);
          return;
        case 'pusher:ping':
          ws.send(PONG_FRAME);
          return;
        default:
          options.onFrame(frame);
      }
    });
  });
  return { ws, subscribed };
};
