/**
 * Load generator for live delivery (run with `node --import tsx`, driven by spawn.ts):
 * holds many Pusher-protocol websocket clients (plain `ws`), subscribes each to its user's private
 * channel, sends messages at a fixed rate (through POST /user/send/message, or through a raw ws relay
 * for the baseline), and measures send → ChatMessage at the receiver in an HDR histogram. In
 * 'socketio' mode the clients are `socket.io-client` sockets of the Socket.IO peer
 * (socketio-peer.ts) and sends go through its POST /send, with the same accounting.
 *
 * Every message text carries its sequence number and the send time (`b:<seq>:<epoch ms>`), taken
 * from `performance.timeOrigin + performance.now()`, so receivers in any process can time it.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { io as connectSocketIo } from 'socket.io-client';
import WebSocket from 'ws';
import {
  CHAT_MESSAGE_EVENT,
  PRESENCE_CHANGED_EVENT,
  userChannelName,
} from '../../src/shared/events.js';
import { paths } from '../../src/shared/paths.js';
import { createHistogram, encodeHistogram, recordMs, type Histogram } from './histogram.js';
import { firePacedCalls, httpCall, type HttpAnswer } from './http-call.js';
import { serveWorker } from './worker-runtime.js';
import {
  channelAuth,
  chatOf,
  nowMs,
  parseFrame,
  rawText,
  readTimedText,
  timedText,
  type PusherFrame,
} from './live-frames.js';
import { authOfAnswer, openPusherRawClient } from './pusher-raw-client.js';

export interface ClientSpec {
  userId: number;
  token: string;
  /** ws://…/app/{key} (pusher), ws://…/?id= (relay), or the peer's http://… base (socketio). */
  wsUrl: string;
}

export type DeliveryMode = 'pusher' | 'relay' | 'socketio';

export interface ConnectRequest {
  clients: ClientSpec[];
  mode: DeliveryMode;
  /** sign: compute the subscription signature here; http: ask POST /broadcasting/auth like pusher-js does. */
  auth: 'sign' | 'http';
  /** Base URL of the server for auth: 'http'. */
  httpUrl?: string;
  pusherKey: string;
  pusherSecret: string;
  /** Handshakes in flight at most. */
  concurrency: number;
  /** New connections per second (paced); unpaced when absent. */
  ratePerSecond?: number;
  timeoutMs: number;
}

export interface ConnectResult {
  requested: number;
  connected: number;
  failed: number;
  errors: string[];
  /** connect → (auth) → subscription_succeeded, µs. */
  histogram: string;
  /** The parts: socket opened → connection_established; the auth call; subscribe → succeeded (µs). */
  phases: { established: string; auth: string; subscribed: string };
  /** Longest stall of this client process's event loop while connecting (ms). */
  clientLoopDelayMaxMs: number;
  elapsedMs: number;
}

export interface PartySpec {
  id: number;
  token: string;
}

export interface ConversationSpec {
  id: number;
  jobId: number | null;
  a: PartySpec;
  b: PartySpec;
}

export interface SendRequest {
  /** http: POST /user/send/message; relay: a frame to the relay; socketio: the peer's POST /send. */
  via: 'http' | 'relay' | 'socketio';
  httpUrl?: string;
  /** The base URL each sender's calls go to, by user id, where it differs from `httpUrl` (an instance each). */
  httpUrlOf?: Record<string, string>;
  /** Query string of every call (`key=…&token=`). */
  query?: string;
  conversations: ConversationSpec[];
  /** alternate: a→b then b→a by rounds over the conversations; a-to-b: always a → b. */
  direction: 'alternate' | 'a-to-b';
  rate: number;
  count: number;
  /** Send the sender socket's id as X-Socket-ID (the server then skips that socket). */
  excludeSenderSocket: boolean;
  /** How long to wait for outstanding deliveries after the last response. */
  drainMs: number;
}

export interface SendResult {
  attempted: number;
  ok: number;
  failed: number;
  statuses: Record<string, number>;
  errors: string[];
  /** Deliveries of a sent message to its receiver (first copy). */
  delivered: number;
  /** Extra copies of a message at its receiver. */
  duplicates: number;
  /** Sent (accepted) but never delivered to the receiver. */
  lost: number;
  /** Copies that reached the sender's own (excluded) socket. */
  echoes: number;
  /** Copies at a socket of neither party. */
  misdelivered: number;
  /** send → ChatMessage at the receiver, µs. */
  latency: string;
  /** HTTP response time of the send call, µs (http only). */
  response: string;
  /** The slowest send calls: when they started (ms into the run) and how long they took. */
  slowest: { seq: number; atMs: number; responseMs: number }[];
  elapsedMs: number;
}

export interface ListenStats {
  framesReceived: number;
  toReceiver: number;
  uniqueToReceiver: number;
  duplicates: number;
  echoes: number;
  misdelivered: number;
  openSockets: number;
  closedUnexpectedly: number;
}

interface Client {
  userId: number;
  socketId: string;
  /** Still connected (counted in stats' openSockets). */
  isOpen: () => boolean;
  /** Drops the connection at once (a websocket without its closing handshake). */
  terminate: () => void;
  /** The plain websocket (pusher and relay modes): relay sends are written to it. */
  ws?: WebSocket;
}

const clients = new Map<number, Client>();
let closing = false;
let closedUnexpectedly = 0;

/** Delivery accounting (reset per phase): frames heard, copies at the receiver, sender, others. */
const newHeard = () => ({
  framesReceived: 0,
  toReceiver: 0,
  duplicates: 0,
  echoes: 0,
  misdelivered: 0,
  seenChatIds: new Set<number>(),
  latency: createHistogram(),
});
let heard = newHeard();
/** seq → copies at the receiver, for the current send phase. */
let seqCopies = new Uint8Array(0);

const resetStats = (): void => {
  heard = newHeard();
};

/** A `PresenceChanged` heard by one client: whose, which way, when (epoch ms). */
export interface PresenceArrival {
  receiverId: number;
  userId: number;
  online: boolean;
  receivedAt: number;
}
let presenceArrivals: PresenceArrival[] = [];

const onPresence = (client: Client, data: unknown): void => {
  const receivedAt = nowMs();
  try {
    const event = (typeof data === 'string' ? JSON.parse(data) : data) as {
      user_id: number;
      online: boolean;
    };
    presenceArrivals.push({
      receiverId: client.userId,
      userId: event.user_id,
      online: event.online,
      receivedAt,
    });
  } catch {
    // not a presence event
  }
};

const onChatMessage = (client: Client, data: unknown): void => {
  const receivedAt = nowMs();
  heard.framesReceived += 1;
  const chat = chatOf(data);
  if (!chat) return;
  if (chat.receiver_id === client.userId) {
    heard.toReceiver += 1;
    if (typeof chat.id === 'number') {
      if (heard.seenChatIds.has(chat.id)) heard.duplicates += 1;
      else heard.seenChatIds.add(chat.id);
    }
    const timed = readTimedText(chat.message);
    if (timed && timed.seq < seqCopies.length) {
      const copies = seqCopies[timed.seq] ?? 0;
      seqCopies[timed.seq] = Math.min(255, copies + 1);
      if (copies === 0) recordMs(heard.latency, receivedAt - timed.sentAt);
    }
  } else if (chat.sender_id === client.userId) {
    heard.echoes += 1;
  } else {
    heard.misdelivered += 1;
  }
};

const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });

const postJson = (
  baseUrl: string,
  path: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<HttpAnswer> =>
  httpCall(agent, new URL(baseUrl), {
    method: 'POST',
    path,
    headers: { accept: 'application/json', ...headers },
    json: body,
    timeoutMs: 15_000,
  });

interface ConnectTimings {
  total: Histogram;
  established: Histogram;
  auth: Histogram;
  subscribed: Histogram;
}

/**
 * One client's handshake, settled once: `finish()` keeps the client (after `onConnected` has timed
 * it), `finish(error)` or the timeout drops it. `closed(reason)` is the connection's end: a failure
 * during the handshake, and after it a drop (unless the worker is closing its clients).
 */
const handshake = (
  client: Client,
  timeoutMs: number,
  waitingFor: string,
  onConnected: () => void,
  resolve: () => void,
  reject: (error: Error) => void,
) => {
  let settled = false;
  const finish = (error?: Error) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    if (error) {
      client.terminate();
      reject(error);
      return;
    }
    onConnected();
    keep(client);
    resolve();
  };
  const timer = setTimeout(
    () => finish(new Error(`user ${client.userId}: not ${waitingFor} within ${timeoutMs} ms`)),
    timeoutMs,
  );
  const closed = (reason: string) => {
    if (!settled) finish(new Error(`user ${client.userId}: ${reason}`));
    else dropped(client);
  };
  return { finish, closed };
};

/** Opens one client of `request`; resolves once it is connected (and subscribed). */
type OpenClient = (
  spec: ClientSpec,
  request: ConnectRequest,
  timings: ConnectTimings,
) => Promise<void>;

/** Frames of the plain websocket clients: ChatMessage and PresenceChanged are heard. */
const onFrame = (client: Client, frame: PusherFrame): void => {
  if (frame.event === CHAT_MESSAGE_EVENT) onChatMessage(client, frame.data);
  else if (frame.event === PRESENCE_CHANGED_EVENT) onPresence(client, frame.data);
};

/** Kept once connected; a close after that, unless the worker is closing, is a drop. */
const keep = (client: Client): void => {
  clients.set(client.userId, client);
};
const dropped = (client: Client): void => {
  if (closing || clients.get(client.userId) !== client) return;
  closedUnexpectedly += 1;
  clients.delete(client.userId);
};

const wsClient = (spec: ClientSpec, ws: WebSocket): Client => ({
  userId: spec.userId,
  socketId: '',
  isOpen: () => ws.readyState === WebSocket.OPEN,
  terminate: () => ws.terminate(),
  ws,
});

/** A Pusher client subscribed to its user's channel, signed here or by POST /broadcasting/auth. */
const openPusherClient: OpenClient = async (spec, request, timings) => {
  const channel = userChannelName(spec.userId);
  const askAuth = async (socketId: string) => {
    const authStartedAt = performance.now();
    const answer = await postJson(
      request.httpUrl ?? '',
      paths.broadcastingAuth,
      { socket_id: socketId, channel_name: channel },
      { authorization: `Bearer ${spec.token}` },
    );
    const auth = authOfAnswer(answer);
    recordMs(timings.auth, performance.now() - authStartedAt);
    return auth;
  };
  const { ws, subscribed } = openPusherRawClient({
    url: spec.wsUrl,
    channel,
    auth: (socketId) =>
      request.auth === 'sign'
        ? channelAuth(request.pusherSecret, request.pusherKey, socketId, channel)
        : askAuth(socketId),
    timeoutMs: request.timeoutMs,
    label: `user ${spec.userId}: `,
    timings,
    onEstablished: (socketId) => {
      client.socketId = socketId;
    },
    onFrame: (frame) => onFrame(client, frame),
    onClose: () => dropped(client),
  });
  const client = wsClient(spec, ws);
  await subscribed;
  keep(client);
};

/** A client of the relay baseline: connected once its socket opens. */
const openRelayClient: OpenClient = (spec, request, timings) =>
  new Promise<void>((resolve, reject) => {
    const startedAt = performance.now();
    const ws = new WebSocket(spec.wsUrl, { perMessageDeflate: false });
    const client = wsClient(spec, ws);
    const { finish, closed } = handshake(
      client,
      request.timeoutMs,
      'subscribed',
      () => recordMs(timings.total, performance.now() - startedAt),
      resolve,
      reject,
    );
    ws.on('error', (error) => finish(error));
    ws.on('close', () => closed('closed during the handshake'));
    ws.on('open', () => {
      client.socketId = String(spec.userId);
      finish();
    });
    ws.on('message', (raw: WebSocket.RawData) => {
      const frame = parseFrame(rawText(raw));
      if (frame) onFrame(client, frame);
    });
  });

/** A Socket.IO client of the peer: connected (and in its user's room) once `connect` fires. */
const openSocketIoClient: OpenClient = (spec, request, timings) =>
  new Promise<void>((resolve, reject) => {
    const startedAt = performance.now();
    // forceNew: a connection of its own per client, as 2,000 browsers would have (no multiplexing);
    // websocket only, as the peer is configured (which also refuses deflate in the handshake); no
    // reconnection, so a drop counts.
    const socket = connectSocketIo(spec.wsUrl, {
      transports: ['websocket'],
      auth: { userId: spec.userId },
      forceNew: true,
      reconnection: false,
      timeout: request.timeoutMs,
    });
    const client: Client = {
      userId: spec.userId,
      socketId: '',
      isOpen: () => socket.connected,
      terminate: () => socket.disconnect(),
    };
    const { finish, closed } = handshake(
      client,
      request.timeoutMs,
      'connected',
      () => {
        const took = performance.now() - startedAt;
        recordMs(timings.total, took);
        recordMs(timings.established, took);
      },
      resolve,
      reject,
    );
    socket.on('connect', () => {
      client.socketId = socket.id ?? '';
      finish();
    });
    socket.on('connect_error', (error) =>
      finish(new Error(`user ${spec.userId}: ${error.message}`)),
    );
    socket.on('disconnect', (reason) => closed(`disconnected (${reason})`));
    // The event name socketio-peer.ts emits.
    socket.on('ChatMessage', (data: unknown) => onChatMessage(client, data));
  });

const OPEN_CLIENT: Record<DeliveryMode, OpenClient> = {
  pusher: openPusherClient,
  relay: openRelayClient,
  socketio: openSocketIoClient,
};

const connect = async (request: ConnectRequest): Promise<ConnectResult> => {
  const timings: ConnectTimings = {
    total: createHistogram(),
    established: createHistogram(),
    auth: createHistogram(),
    subscribed: createHistogram(),
  };
  const loopDelay = monitorEventLoopDelay({ resolution: 5 });
  loopDelay.enable();
  const started = performance.now();
  const errors: string[] = [];
  let failed = 0;
  let connected = 0;
  let inFlight = 0;
  let next = 0;
  const total = request.clients.length;
  await new Promise<void>((resolveAll) => {
    if (total === 0) {
      resolveAll();
      return;
    }
    let done = 0;
    const pump = () => {
      const allowed = request.ratePerSecond
        ? Math.min(
            total,
            Math.floor(((performance.now() - started) * request.ratePerSecond) / 1000) + 1,
          )
        : total;
      while (next < allowed && inFlight < request.concurrency) {
        const spec = request.clients[next++]!;
        inFlight += 1;
        OPEN_CLIENT[request.mode](spec, request, timings)
          .then(
            () => {
              connected += 1;
            },
            (error: unknown) => {
              failed += 1;
              if (errors.length < 10)
                errors.push(error instanceof Error ? error.message : String(error));
            },
          )
          .finally(() => {
            inFlight -= 1;
            done += 1;
            if (done === total) resolveAll();
            else pump();
          });
      }
      if (next < total && inFlight < request.concurrency && request.ratePerSecond) {
        const nextAt = started + (next * 1000) / request.ratePerSecond;
        setTimeout(pump, Math.max(0, nextAt - performance.now()));
      }
    };
    pump();
  });
  loopDelay.disable();
  return {
    requested: total,
    connected,
    failed,
    errors,
    histogram: encodeHistogram(timings.total),
    phases: {
      established: encodeHistogram(timings.established),
      auth: encodeHistogram(timings.auth),
      subscribed: encodeHistogram(timings.subscribed),
    },
    clientLoopDelayMaxMs: Math.round(loopDelay.max / 1e5) / 10,
    elapsedMs: performance.now() - started,
  };
};

const send = async (request: SendRequest): Promise<SendResult> => {
  resetStats();
  seqCopies = new Uint8Array(request.count);
  const response = createHistogram();
  const accepted: number[] = [];
  let relayMissing = 0;
  const n = request.conversations.length;
  const slowest: SendResult['slowest'] = [];
  const noteSlow = (seq: number, atMs: number, responseMs: number) => {
    if (slowest.length >= 10 && responseMs <= slowest[slowest.length - 1]!.responseMs) return;
    slowest.push({ seq, atMs: Math.round(atMs), responseMs: Math.round(responseMs * 10) / 10 });
    slowest.sort((a, b) => b.responseMs - a.responseMs);
    if (slowest.length > 10) slowest.pop();
  };

  const fire = (seq: number) => {
    const conversation = request.conversations[seq % n]!;
    const forward = request.direction === 'a-to-b' || Math.floor(seq / n) % 2 === 0;
    const from = forward ? conversation.a : conversation.b;
    const to = forward ? conversation.b : conversation.a;
    const sentAt = nowMs();
    const text = timedText(seq, sentAt, `hello from ${from.id}`);
    if (request.via === 'relay') {
      const ws = clients.get(from.id)?.ws;
      if (!ws || ws.readyState !== WebSocket.OPEN) {
        relayMissing += 1;
        return null;
      }
      ws.send(
        JSON.stringify({
          to: to.id,
          chatMessage: {
            id: seq + 1,
            sender_id: from.id,
            receiver_id: to.id,
            messenger_user_id: conversation.id,
            job_id: conversation.jobId,
            message: text,
          },
        }),
      );
      accepted.push(seq);
      return null;
    }
    const socketId = clients.get(from.id)?.socketId;
    const body = {
      receiver_id: to.id,
      messenger_user: conversation.id,
      job_id: conversation.jobId,
      message: text,
      client_id: randomUUID(),
    };
    // The peer has no auth: the sender is named in the body instead of a bearer token.
    const peer = request.via === 'socketio';
    const headers: Record<string, string> = peer ? {} : { authorization: `Bearer ${from.token}` };
    if (request.excludeSenderSocket && socketId) headers['x-socket-id'] = socketId;
    const callStarted = performance.now();
    return postJson(
      request.httpUrlOf?.[from.id] ?? request.httpUrl ?? '',
      peer ? '/send' : `${paths.sendMessage}?${request.query ?? ''}`,
      peer ? { ...body, sender_id: from.id } : body,
      headers,
    ).then((answer) => {
      const took = performance.now() - callStarted;
      recordMs(response, took);
      noteSlow(seq, callStarted - started, took);
      return answer;
    });
  };

  const started = performance.now();
  const tally = await firePacedCalls(
    request.count,
    request.rate,
    fire,
    (seq) => accepted.push(seq),
    started,
  );

  const isDelivered = () => accepted.every((seq) => (seqCopies[seq] ?? 0) > 0);
  const drainUntil = performance.now() + request.drainMs;
  while (!isDelivered() && performance.now() < drainUntil)
    await new Promise((r) => setTimeout(r, 20));
  // A little longer, so late duplicates are counted too.
  await new Promise((r) => setTimeout(r, Math.min(200, request.drainMs)));

  let delivered = 0;
  let lost = 0;
  let seqDuplicates = 0;
  for (const seq of accepted) {
    const copies = seqCopies[seq] ?? 0;
    if (copies === 0) lost += 1;
    else delivered += 1;
    if (copies > 1) seqDuplicates += copies - 1;
  }
  return {
    attempted: request.count,
    ok: accepted.length,
    failed: tally.failed + relayMissing,
    statuses: tally.statuses,
    errors: relayMissing
      ? [...tally.errors, `${relayMissing} senders had no open socket`]
      : tally.errors,
    delivered,
    duplicates: Math.max(seqDuplicates, heard.duplicates),
    lost,
    echoes: heard.echoes,
    misdelivered: heard.misdelivered,
    latency: encodeHistogram(heard.latency),
    response: encodeHistogram(response),
    slowest,
    elapsedMs: performance.now() - started,
  };
};

const stats = (): ListenStats => ({
  framesReceived: heard.framesReceived,
  toReceiver: heard.toReceiver,
  uniqueToReceiver: heard.seenChatIds.size,
  duplicates: heard.duplicates,
  echoes: heard.echoes,
  misdelivered: heard.misdelivered,
  openSockets: [...clients.values()].filter((client) => client.isOpen()).length,
  closedUnexpectedly,
});

/** Drops every client (the map is cleared first, so their close events do not count as unexpected). */
const closeAll = async (): Promise<void> => {
  const all = [...clients.values()];
  clients.clear();
  for (const client of all) client.terminate();
};

const exitWorker = async (): Promise<void> => {
  closing = true;
  await closeAll();
  agent.destroy();
};

serveWorker(
  {
    connect: (payload: ConnectRequest) => connect(payload),
    send: (payload: SendRequest) => send(payload),
    stats: () => stats(),
    reset: () => {
      resetStats();
      return stats();
    },
    closeAll: () => closeAll(),
    /** The PresenceChanged events heard since the last call (and forgets them). */
    takePresence: () => {
      const taken = presenceArrivals;
      presenceArrivals = [];
      return taken;
    },
  },
  exitWorker,
);
