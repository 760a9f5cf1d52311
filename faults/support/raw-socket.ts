import WebSocket from 'ws';
import { within } from './wait.js';

export interface Frame {
  event: string;
  channel?: string;
  data?: unknown;
}

/**
 * A raw websocket to the live endpoint, for what stock clients never send (forged subscriptions,
 * oversized or malformed frames). Keeps every frame it receives.
 */
export class RawSocket {
  readonly frames: Frame[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  socketId = '';

  private constructor(readonly ws: WebSocket) {
    this.closed = new Promise((resolve) =>
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    ws.on('error', () => undefined);
    ws.on('message', (raw: WebSocket.RawData) => {
      const text = (
        Buffer.isBuffer(raw) ? raw : Array.isArray(raw) ? Buffer.concat(raw) : Buffer.from(raw)
      ).toString('utf8');
      try {
        this.frames.push(JSON.parse(text) as Frame);
      } catch {
        this.frames.push({ event: '(not JSON)', data: text });
      }
    });
  }

  /** Opens `/app/{key}` and waits for `pusher:connection_established`. */
  static async open(
    port: number,
    key: string,
    headers: Record<string, string> = {},
  ): Promise<RawSocket> {
    const ws = new WebSocket(
      `ws://127.0.0.1:${port}/app/${key}?protocol=7&client=js&version=8.6.0`,
      { headers },
    );
    const socket = new RawSocket(ws);
    await within(
      new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
        ws.once('unexpected-response', (_request, response) =>
          reject(new Error(`upgrade answered ${response.statusCode}`)),
        );
      }),
      'websocket open',
      10_000,
    );
    const established = await socket.next(
      (frame) => frame.event === 'pusher:connection_established',
    );
    socket.socketId = (JSON.parse(established.data as string) as { socket_id: string }).socket_id;
    return socket;
  }

  /** The upgrade's HTTP status when the server refuses it (or 101 when it is accepted). */
  static upgradeStatus(
    port: number,
    key: string,
    headers: Record<string, string>,
  ): Promise<number> {
    return within(
      new Promise<number>((resolve) => {
        const ws = new WebSocket(`ws://127.0.0.1:${port}/app/${key}?protocol=7`, { headers });
        ws.on('error', () => undefined);
        ws.once('unexpected-response', (_request, response) => {
          resolve(response.statusCode ?? 0);
          ws.terminate();
        });
        ws.once('upgrade', () => {
          resolve(101);
          ws.terminate();
        });
      }),
      'upgrade answer',
      10_000,
    );
  }

  async next(predicate: (frame: Frame) => boolean, label = 'a frame', ms = 10_000): Promise<Frame> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.frames.find(predicate);
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(
          `Timed out waiting for ${label}; frames: ${JSON.stringify(this.frames).slice(0, 2000)}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** Sends `pusher:subscribe` and waits for the answer on that channel (success or error). */
  async subscribe(channel: string, auth?: string): Promise<Frame> {
    const seen = this.frames.length;
    this.send({
      event: 'pusher:subscribe',
      data: { channel, ...(auth === undefined ? {} : { auth }) },
    });
    return this.next(
      (frame) =>
        this.frames.indexOf(frame) >= seen &&
        frame.channel === channel &&
        (frame.event === 'pusher_internal:subscription_succeeded' ||
          frame.event === 'pusher:subscription_error'),
      `subscription answer for ${channel}`,
    );
  }

  /** Application events received on a channel. */
  eventsOn(channel: string): Frame[] {
    return this.frames.filter(
      (frame) => frame.channel === channel && !frame.event.startsWith('pusher'),
    );
  }

  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  async close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return;
    this.ws.close();
    await within(this.closed, 'raw socket close', 5_000).catch(() => this.ws.terminate());
  }
}
