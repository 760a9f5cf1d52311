import WebSocket from 'ws';
import { within } from './wait.js';

/**
 * A raw websocket speaking the Pusher protocol frame by frame: for what stock clients never send
 * (forged subscriptions, oversized or malformed frames), for checking the exact frames, and for load
 * that pusher-js would make too heavy. Keeps every frame it receives.
 */

export interface Frame {
  event: string;
  channel?: string;
  data?: unknown;
}

/** The live endpoint of a key, opened the way pusher-js 8 opens it (protocol 7). */
export const pusherSocketUrl = (port: number, key: string, host = '127.0.0.1'): string =>
  `ws://${host}:${port}/app/${key}?protocol=7&client=js&version=8.6.0`;

const textOf = (raw: WebSocket.RawData): string =>
  (Buffer.isBuffer(raw)
    ? raw
    : Array.isArray(raw)
      ? Buffer.concat(raw)
      : Buffer.from(raw)
  ).toString('utf8');

interface Waiter {
  /** Only frames at this index or later count. */
  from: number;
  predicate: (frame: Frame) => boolean;
  resolve: (frame: Frame) => void;
}

export class RawSocket {
  readonly frames: Frame[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  /** Set by `open` (from pusher:connection_established). */
  socketId = '';
  private waiters: Waiter[] = [];
  private listeners: ((frame: Frame) => void)[] = [];
  /** `next` looks at frames from here on: after the last frame a wait returned. */
  private cursor = 0;

  private constructor(readonly ws: WebSocket) {
    this.closed = new Promise((resolve) =>
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    ws.on('error', () => undefined);
    ws.on('message', (raw: WebSocket.RawData) => {
      const text = textOf(raw);
      let frame: Frame;
      try {
        frame = JSON.parse(text) as Frame;
      } catch {
        frame = { event: '(not JSON)', data: text };
      }
      const index = this.frames.push(frame) - 1;
      for (const listener of this.listeners) listener(frame);
      this.waiters = this.waiters.filter((waiter) => {
        if (index < waiter.from || !waiter.predicate(frame)) return true;
        this.cursor = index + 1;
        waiter.resolve(frame);
        return false;
      });
    });
  }

  /** Opens a socket; resolves once the upgrade succeeded (rejects with the status otherwise). */
  static async connect(url: string, options: WebSocket.ClientOptions = {}): Promise<RawSocket> {
    const ws = new WebSocket(url, options);
    const socket = new RawSocket(ws);
    await within(
      new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
        ws.once('unexpected-response', (_request, response) => {
          reject(new Error(`upgrade answered ${response.statusCode}`));
          ws.terminate();
        });
      }),
      'websocket open',
    );
    return socket;
  }

  /** Connects and waits for `pusher:connection_established` (its socket id in `socketId`). */
  static async open(url: string, options: WebSocket.ClientOptions = {}): Promise<RawSocket> {
    const socket = await RawSocket.connect(url, options);
    const established = await socket.next(
      (frame) => frame.event === 'pusher:connection_established',
      'pusher:connection_established',
    );
    socket.socketId = (JSON.parse(established.data as string) as { socket_id: string }).socket_id;
    return socket;
  }

  /** The upgrade's HTTP status when the server refuses it, 101 when it accepts (-1: no answer). */
  static upgradeStatus(url: string, options: WebSocket.ClientOptions = {}): Promise<number> {
    const ws = new WebSocket(url, options);
    return within(
      new Promise<number>((resolve) => {
        ws.on('error', () => resolve(-1));
        ws.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
        ws.once('upgrade', () => resolve(101));
      }),
      'the upgrade answer',
    ).finally(() => ws.terminate());
  }

  /** Calls `listener` with every frame as it arrives (after it was kept in `frames`). */
  onFrame(listener: (frame: Frame) => void): void {
    this.listeners.push(listener);
  }

  /**
   * The first frame matching the predicate after the last one a wait returned (received already or
   * later); frames before it are passed over for good.
   */
  next(predicate: (frame: Frame) => boolean, label = 'a frame', ms = 10_000): Promise<Frame> {
    return this.waitFrom(this.cursor, predicate, label, ms);
  }

  private waitFrom(
    from: number,
    predicate: (frame: Frame) => boolean,
    label: string,
    ms: number,
  ): Promise<Frame> {
    for (let index = from; index < this.frames.length; index++) {
      const frame = this.frames[index]!;
      if (predicate(frame)) {
        this.cursor = index + 1;
        return Promise.resolve(frame);
      }
    }
    return new Promise<Frame>((resolve, reject) => {
      const waiter: Waiter = {
        from,
        predicate,
        resolve: (frame) => {
          clearTimeout(timer);
          resolve(frame);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((other) => other !== waiter);
        reject(
          new Error(
            `Timed out after ${ms} ms waiting for ${label}; frames: ${JSON.stringify(this.frames).slice(0, 2000)}`,
          ),
        );
      }, ms);
      this.waiters.push(waiter);
    });
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** Sends `pusher:subscribe` and waits for the answer on that channel (success or error). */
  subscribe(channel: string, auth?: string, channelData?: string): Promise<Frame> {
    const from = this.frames.length;
    this.send({
      event: 'pusher:subscribe',
      data: {
        channel,
        ...(auth === undefined ? {} : { auth }),
        ...(channelData === undefined ? {} : { channel_data: channelData }),
      },
    });
    return this.waitFrom(
      from,
      (frame) =>
        frame.channel === channel &&
        (frame.event === 'pusher_internal:subscription_succeeded' ||
          frame.event === 'pusher:subscription_error'),
      `the subscription answer for ${channel}`,
      10_000,
    );
  }

  /** The socket still answers: pusher:ping → a pusher:pong that came after it. */
  async ping(label = 'a pong'): Promise<void> {
    const from = this.frames.length;
    this.send({ event: 'pusher:ping', data: {} });
    await this.waitFrom(from, (frame) => frame.event === 'pusher:pong', label, 10_000);
  }

  /** Application events received on a channel. */
  eventsOn(channel: string): Frame[] {
    return this.frames.filter(
      (frame) => frame.channel === channel && !frame.event.startsWith('pusher'),
    );
  }

  /** The codes of the pusher:error frames received so far. */
  errorCodes(): unknown[] {
    return this.frames
      .filter((frame) => frame.event === 'pusher:error')
      .map((frame) => (frame.data as { code?: unknown }).code);
  }

  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  async close(ms = 5_000): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return;
    this.ws.close();
    await within(this.closed, 'the socket closed', ms).catch(() => this.ws.terminate());
  }
}
