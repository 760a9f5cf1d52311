/**
 * Peer for live delivery: the minimal server a Node team would write with Socket.IO — `node:http`
 * for `POST /send`, the same single insert into `chats` as the raw insert server (raw-insert.ts),
 * and a Socket.IO room per user (`user:<id>`) to deliver the stored row as `ChatMessage` to both
 * parties but the sender's socket (`X-Socket-ID`).
 *
 * What it skips, and our server does not: auth of any kind (a socket names its user in
 * `auth.userId` and is believed, like the raw ws relay; the send body names its sender), body
 * validation, the conversation lookup, the transaction, the outbox and the Pusher protocol.
 */
import http from 'node:http';
import { Server } from 'socket.io';
import { closeServer, listenLocal, sendJson } from './bare-http.js';
import { createRawInsert, insertFromRequest } from './raw-insert.js';
import { serveWorker } from './worker-runtime.js';

export interface SocketIoPeerOptions {
  /** DATABASE_URL of the bench database (sqlite:<file>, or postgres://…). */
  url: string;
}

/** The event the peer emits and the Socket.IO clients of delivery-client-worker.ts listen to. */
const CHAT_EVENT = 'ChatMessage';

const roomOf = (userId: number): string => `user:${userId}`;

let server: http.Server | undefined;
let io: Server | undefined;
let close: () => Promise<void> = async () => undefined;

const listen = async (options: SocketIoPeerOptions): Promise<{ port: number }> => {
  const raw = createRawInsert({
    driver: options.url.startsWith('sqlite:') ? 'sqlite' : 'postgres',
    url: options.url,
  });
  close = raw.close;
  const httpServer = http.createServer((request, response) => {
    if (request.method !== 'POST' || request.url !== '/send') {
      response.writeHead(404).end();
      return;
    }
    const header = request.headers['x-socket-id'];
    const senderSocket = typeof header === 'string' && header !== '' ? [header] : [];
    insertFromRequest(raw, request, response, (body, { id, createdAt }) => {
      // Every socket is in the room of its own id, so except() drops just the sender's copy.
      io!
        .to(roomOf(body.receiver_id))
        .to(roomOf(body.sender_id))
        .except(senderSocket)
        .emit(CHAT_EVENT, {
          chatMessage: {
            id,
            sender_id: body.sender_id,
            receiver_id: body.receiver_id,
            messenger_user_id: body.messenger_user,
            job_id: body.job_id,
            message: body.message,
            created_at: createdAt,
            seen_at: null,
          },
        });
      sendJson(response, 200, { id });
    });
  });
  server = httpServer;
  // Tuned as a Node team chasing latency would: websocket only (no long-polling handshake and
  // upgrade), no per-message deflate (compression costs CPU and time on small frames), no bundled
  // client to serve.
  io = new Server(httpServer, {
    transports: ['websocket'],
    perMessageDeflate: false,
    serveClient: false,
  });
  io.on('connection', (socket) => {
    // No auth: the client's word for its user is taken (as the raw ws relay does).
    const userId = Number((socket.handshake.auth as { userId?: unknown }).userId);
    if (!Number.isInteger(userId)) {
      socket.disconnect(true);
      return;
    }
    // Joined before the client can see `connect` (the CONNECT packet is sent in this same tick),
    // so no send the client makes after connecting can miss it.
    void socket.join(roomOf(userId));
  });
  return { port: await listenLocal(httpServer) };
};

serveWorker({ listen: (options: SocketIoPeerOptions) => listen(options) }, async () => {
  if (io) {
    server?.closeAllConnections();
    await io.close();
  } else await closeServer(server);
  await close();
});
