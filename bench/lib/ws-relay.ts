/**
 * Baseline for live delivery: a bare `ws` server that forwards a frame from one socket to another
 * (`{to, chatMessage}` in, a Pusher-shaped ChatMessage frame out). No HTTP, no database, no auth:
 * what delivery costs on this machine with the same client harness.
 */
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { CHAT_MESSAGE_EVENT, userChannelName } from '../../src/shared/events.js';
import { serveWorker } from './worker-runtime.js';
import { rawText } from './live-frames.js';

let server: WebSocketServer | undefined;
const sockets = new Map<number, WebSocket>();

const listen = (): Promise<{ port: number }> =>
  new Promise((resolve) => {
    const wss: WebSocketServer = new WebSocketServer(
      { host: '127.0.0.1', port: 0, perMessageDeflate: false, clientTracking: false },
      () => {
        resolve({ port: (wss.address() as AddressInfo).port });
      },
    );
    server = wss;
    wss.on('connection', (ws, request) => {
      const id = Number(new URL(request.url ?? '/', 'http://relay').searchParams.get('id'));
      sockets.set(id, ws);
      ws.on('close', () => {
        if (sockets.get(id) === ws) sockets.delete(id);
      });
      ws.on('message', (raw) => {
        const { to, chatMessage } = JSON.parse(rawText(raw)) as {
          to: number;
          chatMessage: unknown;
        };
        sockets.get(to)?.send(
          JSON.stringify({
            event: CHAT_MESSAGE_EVENT,
            channel: userChannelName(to),
            data: JSON.stringify({ chatMessage }),
          }),
        );
      });
    });
  });

serveWorker({ listen: () => listen() }, async () => {
  for (const ws of sockets.values()) ws.terminate();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});
