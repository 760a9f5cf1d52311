/**
 * Load generator of the capacity scenario (run with `node --import tsx`, driven by spawn.ts): holds
 * the live sockets of its share of the simulated users (user index % workers = this worker's index)
 * and plays each user's day on the page:
 *
 * - **arrives** (and, for the users who reload, **reloads**): `GET /messenger/config`, then the first
 *   list page and the live socket at once, as the page does after its config; the page load is timed
 *   from when the user meant to open the page to the list's answer; the socket does what pusher-js
 *   does (socket id, `POST /broadcasting/auth`, subscribe to `private-chat.{id}`);
 * - **opens a conversation** (`POST /user/get/message`, which marks it seen): the newest one that got
 *   a message since the user last looked, else one of theirs, preferring a partner who is online;
 * - **sends** in the open conversation: `POST …/typing`, a pause while "typing", then
 *   `POST /user/send/message` with the socket's `X-Socket-ID`;
 * - **marks seen** (`GET …/unseen/{id}`) a message that arrives in the open conversation, as the page
 *   does; a message for another conversation waits for the next open (so replies alternate sides).
 *
 * Each kind of action is a Poisson process per user (exponential gaps from the user's own seeded
 * PRNG), fired by one scheduler (a heap). The population (users, conversations, tokens) is rebuilt
 * here from the same options and secret the seeder used.
 *
 * Sends carry `b:<seq>:<epoch ms>`; the receiver, in whichever process holds it, times send →
 * ChatMessage. Sequence numbers are `local × workers + worker index`, unique over the run, and the
 * parent matches what was sent against what was received (collect).
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import {
  CHAT_MESSAGE_EVENT,
  MESSAGES_SEEN_EVENT,
  PRESENCE_CHANGED_EVENT,
  TYPING_EVENT,
  userChannelName,
} from '../../src/shared/events.js';
import { paths } from '../../src/shared/paths.js';
import {
  buildCapacityPopulation,
  capacityToken,
  conversationIdOf,
  createRandom,
  userIdOf,
  type CapacityPopulation,
} from '../../test-support/capacity-population.js';
import {
  emptyCounts,
  GAP_ARRIVAL,
  GAP_AWAY,
  TIMED,
  type AddUsersRequest,
  type AddUsersResult,
  type CapacityInit,
  type CollectResult,
  type Timed,
  type WarmupResult,
} from './capacity-protocol.js';
import { createHistogram, encodeHistogram, recordMs, type Histogram } from './histogram.js';
import { serveWorker } from './worker-runtime.js';
import { httpCall } from './http-call.js';
import { chatOf, nowMs, readTimedText, timedText } from './live-frames.js';
import { authOfAnswer, openPusherRawClient } from './pusher-raw-client.js';

const TEXT = 'sounds good, could we talk about the role this week?';
const TICK_MS = 5;
/** An event's name as it appears in a frame's JSON (backslashes escaped). */
const EVENT_NAME = /"event":"((?:[^"\\]|\\.)*)"/;
const inFrame = (event: string): string => JSON.stringify(event).slice(1, -1);
/** The frames counted by their event's name, not read. */
const FRAME_COUNTS: Record<string, 'presenceFrames' | 'typingFrames' | 'seenFrames'> = {
  [inFrame(PRESENCE_CHANGED_EVENT)]: 'presenceFrames',
  [inFrame(TYPING_EVENT)]: 'typingFrames',
  [inFrame(MESSAGES_SEEN_EVENT)]: 'seenFrames',
};
const UNREAD_MAX = 20;

const enum Kind {
  Open = 0,
  Send = 1,
  Reload = 2,
}

interface SimUser {
  index: number;
  id: number;
  token: string;
  random: () => number;
  reloader: boolean;
  ws: WebSocket | null;
  socketId: string;
  /** Subscribed and the page loaded: the user acts and hears live events. */
  live: boolean;
  /** Set while its scheduled actions run (a user takes part once arrived). */
  scheduled: boolean;
  /** The open conversation (index), -1 for none. */
  open: number;
  /** Conversations that got a message since the user last looked, newest last. */
  unread: number[];
  /** Index into `gaps` of the user's open gap (-1 for none). */
  gapAt: number;
}

interface Event {
  at: number;
  user: number;
  kind: Kind;
}

/** A binary min-heap of events by time. */
class EventHeap {
  private items: Event[] = [];
  get size(): number {
    return this.items.length;
  }
  peek(): Event | undefined {
    return this.items[0];
  }
  push(event: Event): void {
    const items = this.items;
    items.push(event);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (items[parent]!.at <= event.at) break;
      items[i] = items[parent]!;
      i = parent;
    }
    items[i] = event;
  }
  pop(): Event | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (!top || !last || items.length === 0) return top;
    let i = 0;
    const n = items.length;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      const child = right < n && items[right]!.at < items[left]!.at ? right : left;
      if (items[child]!.at >= last.at) break;
      items[i] = items[child]!;
      i = child;
    }
    items[i] = last;
    return top;
  }
  clear(): void {
    this.items = [];
  }
  shift(by: number): void {
    for (const item of this.items) item.at += by;
  }
}

let init: CapacityInit | undefined;
let population: CapacityPopulation | undefined;
const users = new Map<number, SimUser>();
const heap = new EventHeap();
let activeLimit = 0;
let paused = true;
let pausedAt = performance.now();
let inflight = 0;
/** Calls started and not yet answered or failed (every call of this process goes through `request`). */
let callsInFlight = 0;
let localSeq = 0;
let closing = false;

let histograms = {} as Record<Timed, Histogram>;
let counts: CollectResult['counts'];
let statuses: Record<string, number> = {};
let failures: Record<string, number> = {};
let errorSamples: string[] = [];
let sent: number[] = [];
let receivedSeqs: number[] = [];
let received = new Set<number>();
let gaps: number[] = [];
const loopDelay = monitorEventLoopDelay({ resolution: 5 });
loopDelay.enable();

const resetStats = (): void => {
  histograms = Object.fromEntries(TIMED.map((name) => [name, createHistogram()])) as Record<
    Timed,
    Histogram
  >;
  counts = emptyCounts();
  statuses = {};
  failures = {};
  errorSamples = [];
  sent = [];
  receivedSeqs = [];
  received = new Set();
  // Gaps still open carry over (a user not yet back), re-based on the new list.
  const open: number[] = [];
  for (const user of users.values()) {
    if (user.gapAt < 0) continue;
    const from = gaps[user.gapAt + 1]!;
    const kind = gaps[user.gapAt + 3]!;
    user.gapAt = open.length;
    open.push(user.index, from, -1, kind);
  }
  gaps = open;
  loopDelay.reset();
};
resetStats();

const noteError = (text: string): void => {
  if (errorSamples.length < 10) errorSamples.push(text.slice(0, 300));
};

const setup = (): { init: CapacityInit; population: CapacityPopulation } => {
  if (!init || !population) throw new Error('capacity worker: init first');
  return { init, population };
};

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

interface Answer {
  status: number;
  body: string;
}

const request = async (
  method: 'GET' | 'POST',
  path: string,
  token: string | null,
  body?: unknown,
  extraHeaders: Record<string, string> = {},
): Promise<Answer> => {
  const { init: config } = setup();
  callsInFlight += 1;
  try {
    const answer = await httpCall(agent, new URL(config.httpUrl), {
      method,
      path,
      headers: {
        accept: 'application/json',
        ...extraHeaders,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      json: body,
      timeoutMs: config.requestTimeoutMs,
      timeoutMessage: `no answer within ${config.requestTimeoutMs} ms`,
    });
    return { status: answer.status, body: answer.body.toString() };
  } finally {
    callsInFlight -= 1;
  }
};

/**
 * One call, timed into `histogram` when answered with 2xx; anything else is counted as an error
 * under `name`. Resolves with the answer, or null when it failed.
 */
const timedCall = async (
  name: string,
  histogram: Histogram | null,
  method: 'GET' | 'POST',
  path: string,
  token: string,
  body?: unknown,
  headers?: Record<string, string>,
): Promise<Answer | null> => {
  const started = performance.now();
  try {
    const answer = await request(method, path, token, body, headers);
    if (answer.status < 200 || answer.status > 299) {
      const key = `${name} ${answer.status}`;
      statuses[key] = (statuses[key] ?? 0) + 1;
      noteError(`${key}: ${answer.body.slice(0, 200)}`);
      return null;
    }
    if (histogram) recordMs(histogram, performance.now() - started);
    return answer;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const key = `${name}: ${message.slice(0, 80)}`;
    failures[key] = (failures[key] ?? 0) + 1;
    noteError(key);
    return null;
  }
};

const withQuery = (path: string, extra = ''): string => `${path}?${setup().init.query}${extra}`;

const partnerOf = (user: SimUser, conversation: number): number => {
  const { population: p } = setup();
  const candidate = p.conversationCandidate[conversation]!;
  return candidate === user.index ? p.conversationCompany[conversation]! : candidate;
};

/** The next conversation to open: the newest with news, else one of theirs (partner online preferred). */
const pickConversation = (user: SimUser): number => {
  const news = user.unread.pop();
  if (news !== undefined) return news;
  const { population: p } = setup();
  const start = p.userStart[user.index]!;
  const count = p.userStart[user.index + 1]! - start;
  if (count === 0) return -1;
  let conversation = -1;
  for (let tries = 0; tries < 16; tries += 1) {
    conversation = p.userConversations[start + Math.floor(user.random() * count)]!;
    if (partnerOf(user, conversation) < activeLimit) return conversation;
  }
  return conversation;
};

/** `kind`: GAP_ARRIVAL until the user first arrives, GAP_AWAY once it was on (reload, drop). */
const gapStart = (user: SimUser, kind: number): void => {
  if (user.gapAt >= 0) return;
  user.gapAt = gaps.length;
  gaps.push(user.index, nowMs(), -1, kind);
};

const gapEnd = (user: SimUser): void => {
  if (user.gapAt < 0) return;
  gaps[user.gapAt + 2] = nowMs();
  user.gapAt = -1;
};

const markSeen = (user: SimUser, conversation: number): void => {
  inflight += 1;
  counts.seen += 1;
  void timedCall(
    'unseen',
    histograms.seen,
    'GET',
    withQuery(paths.unseen(conversationIdOf(conversation))),
    user.token,
  ).finally(() => {
    inflight -= 1;
  });
};

/** The X-Socket-ID each send of this process named ('' when its user had no socket then). */
const sendSockets = new Map<number, string>();

const onChat = (user: SimUser, data: unknown, socketId: string): void => {
  const receivedAt = nowMs();
  const chat = chatOf(data);
  if (!chat) return;
  const timed = readTimedText(chat.message);
  if (chat.receiver_id !== user.id) {
    if (chat.sender_id !== user.id) counts.misdelivered += 1;
    else if (timed && sendSockets.get(timed.seq) !== socketId) counts.echoesToNewerSocket += 1;
    else counts.echoes += 1;
    return;
  }
  if (timed) {
    if (received.has(timed.seq)) {
      counts.duplicates += 1;
      return;
    }
    received.add(timed.seq);
    receivedSeqs.push(timed.seq);
    counts.received += 1;
    recordMs(histograms.deliver, receivedAt - timed.sentAt);
  }
  const conversation = (chat.messenger_user_id ?? 0) - 1;
  if (conversation < 0) return;
  if (user.open === conversation) {
    markSeen(user, conversation);
    return;
  }
  const at = user.unread.indexOf(conversation);
  if (at >= 0) user.unread.splice(at, 1);
  user.unread.push(conversation);
  if (user.unread.length > UNREAD_MAX) user.unread.shift();
};

/** Opens the user's socket the way pusher-js does; resolves once subscribed. */
const connectSocket = (user: SimUser): Promise<void> => {
  const { init: config } = setup();
  const started = performance.now();
  const channel = userChannelName(user.id);
  /** This socket's id, once the server named it. */
  let socketId = '';
  const { ws, subscribed } = openPusherRawClient({
    url: config.wsUrl,
    channel,
    auth: async (id) =>
      authOfAnswer(
        await request('POST', paths.broadcastingAuth, user.token, {
          socket_id: id,
          channel_name: channel,
        }),
      ),
    timeoutMs: config.requestTimeoutMs,
    label: '',
    onEstablished: (id) => {
      socketId = id;
      if (user.ws === ws) user.socketId = id;
    },
    // Most frames are other users' presence and typing: counted by name, not parsed.
    skip: (text) => {
      const counted = FRAME_COUNTS[EVENT_NAME.exec(text.slice(0, 120))?.[1] ?? ''];
      if (counted) counts[counted] += 1;
      return counted !== undefined;
    },
    onFrame: (frame) => {
      const counted = frame.event === undefined ? undefined : FRAME_COUNTS[inFrame(frame.event)];
      if (counted) counts[counted] += 1;
      else if (frame.event === CHAT_MESSAGE_EVENT) onChat(user, frame.data, socketId);
    },
    // Closed by the server (not by a reload or the end of the run): the user is cut off.
    onClose: () => {
      if (closing || user.ws !== ws) return;
      counts.drops += 1;
      noteError(`user ${user.id}: socket closed by the server`);
      user.ws = null;
      user.live = false;
      gapStart(user, GAP_AWAY);
    },
  });
  user.ws = ws;
  return subscribed.then(
    () => recordMs(histograms.connect, performance.now() - started),
    (error: unknown) => {
      if (user.ws === ws) user.ws = null;
      throw error;
    },
  );
};

/**
 * `config`, then the first list page and the socket at once, as the page does after its config.
 * The page load is timed from `startedAt`: when the user meant to open the page (an arrival held
 * back by the generator's in-flight limit still counts its wait).
 */
const openPage = async (
  user: SimUser,
  kind: 'arrival' | 'reload',
  startedAt = performance.now(),
): Promise<boolean> => {
  const config = await timedCall('config', null, 'GET', paths.config, user.token);
  if (!config) return false;
  const socket = connectSocket(user).then(
    () => true,
    (error: unknown) => {
      counts.connectFailures += 1;
      noteError(`user ${user.id}: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    },
  );
  const list = await timedCall(
    'list',
    null,
    'GET',
    withQuery(paths.initialData, '&job_id=&limit=50'),
    user.token,
  );
  if (list) {
    const took = performance.now() - startedAt;
    recordMs(histograms.pageLoad, took);
    recordMs(kind === 'arrival' ? histograms.pageLoadArrival : histograms.pageLoadReload, took);
  }
  const subscribed = await socket;
  if (subscribed) gapEnd(user);
  return list !== null && subscribed;
};

const exponential = (random: () => number, mean: number): number => -Math.log(1 - random()) * mean;

const schedule = (user: SimUser, kind: Kind, from = performance.now()): void => {
  const { behaviour } = setup().init;
  const mean =
    kind === Kind.Open
      ? behaviour.openMeanMs
      : kind === Kind.Send
        ? behaviour.sendMeanMs
        : behaviour.reloadMeanMs;
  heap.push({ at: from + exponential(user.random, mean), user: user.index, kind });
};

const startActing = (user: SimUser): void => {
  if (user.scheduled) return;
  user.scheduled = true;
  schedule(user, Kind.Open);
  schedule(user, Kind.Send);
  if (user.reloader) schedule(user, Kind.Reload);
};

const openConversation = async (user: SimUser, conversation: number): Promise<void> => {
  const { population: p } = setup();
  user.open = conversation;
  const at = user.unread.indexOf(conversation);
  if (at >= 0) user.unread.splice(at, 1);
  counts.opens += 1;
  await timedCall('get message', histograms.open, 'POST', withQuery(paths.getMessage), user.token, {
    receiver_id: userIdOf(partnerOf(user, conversation)),
    job_id: p.conversationJob[conversation]!,
  });
};

const doOpen = async (user: SimUser): Promise<void> => {
  const conversation = pickConversation(user);
  if (conversation >= 0) await openConversation(user, conversation);
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const doSend = async (user: SimUser): Promise<void> => {
  const { init: config, population: p } = setup();
  // The page sends in the open conversation: with none open yet, the user opens one first.
  if (user.open < 0) await doOpen(user);
  const conversation = user.open;
  if (conversation < 0) return;
  const conversationId = conversationIdOf(conversation);
  const receiver = partnerOf(user, conversation);
  counts.typing += 1;
  await timedCall(
    'typing',
    histograms.typing,
    'POST',
    withQuery(paths.typing(conversationId)),
    user.token,
  );
  const [low, high] = config.behaviour.typingMs;
  await sleep(low + user.random() * (high - low));
  if (!user.live) {
    counts.skipped += 1;
    return;
  }
  const seq = localSeq * config.workers + config.workerIndex;
  localSeq += 1;
  const sentAt = nowMs();
  counts.sends += 1;
  sendSockets.set(seq, user.socketId);
  const answer = await timedCall(
    'send',
    histograms.send,
    'POST',
    withQuery(paths.sendMessage),
    user.token,
    {
      receiver_id: userIdOf(receiver),
      messenger_user: conversationId,
      job_id: p.conversationJob[conversation]!,
      message: timedText(seq, sentAt, TEXT),
      client_id: randomUUID(),
    },
    user.socketId ? { 'x-socket-id': user.socketId } : {},
  );
  if (answer) {
    counts.sendsAccepted += 1;
    sent.push(seq, receiver, sentAt, nowMs());
  }
};

const doReload = async (user: SimUser): Promise<void> => {
  user.live = false;
  gapStart(user, GAP_AWAY);
  const old = user.ws;
  user.ws = null;
  user.socketId = '';
  user.open = -1;
  old?.close(1000, 'reload');
  counts.reloads += 1;
  if (await openPage(user, 'reload')) user.live = true;
};

const track = (work: Promise<void>): void => {
  inflight += 1;
  void work
    .catch((error: unknown) => noteError(error instanceof Error ? error.message : String(error)))
    .finally(() => {
      inflight -= 1;
    });
};

const fire = (event: Event): void => {
  const user = users.get(event.user);
  if (!user) return;
  schedule(user, event.kind, event.at);
  if (!user.live) {
    counts.skipped += 1;
    return;
  }
  if (event.kind === Kind.Open) track(doOpen(user));
  else if (event.kind === Kind.Send) track(doSend(user));
  else track(doReload(user));
};

setInterval(() => {
  if (paused) return;
  const now = performance.now();
  for (let event = heap.peek(); event && event.at <= now; event = heap.peek()) {
    heap.pop();
    fire(event);
  }
}, TICK_MS);

const resume = (): void => {
  if (!paused) return;
  // Actions due while paused are moved by the pause, so they do not fire in a burst.
  heap.shift(performance.now() - pausedAt);
  paused = false;
};

const userFor = (index: number): SimUser => {
  const { init: config } = setup();
  const existing = users.get(index);
  if (existing) return existing;
  const random = createRandom((config.seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0);
  const id = userIdOf(index);
  const user: SimUser = {
    index,
    id,
    token: capacityToken(config.tokenSecret, id),
    random,
    reloader: random() < config.behaviour.reloadShare,
    ws: null,
    socketId: '',
    live: false,
    scheduled: false,
    open: -1,
    unread: [],
    gapAt: -1,
  };
  users.set(index, user);
  return user;
};

const addUsers = async (payload: AddUsersRequest): Promise<AddUsersResult> => {
  const { init: config } = setup();
  activeLimit = payload.activeUsers;
  resume();
  const mine: SimUser[] = [];
  for (let index = payload.from; index < payload.to; index += 1)
    if (index % config.workers === config.workerIndex) mine.push(userFor(index));
  // Until each new user has arrived, messages to them cannot be heard live.
  for (const user of mine) gapStart(user, GAP_ARRIVAL);
  const started = performance.now();
  let arrived = 0;
  let failed = 0;
  let inFlight = 0;
  let notStarted = 0;
  const arrivals: Promise<void>[] = [];
  const late = (dueAt: number) => performance.now() - dueAt > payload.behindLimitMs;
  for (let k = 0; k < mine.length; k += 1) {
    const dueAt = started + (k * 1000) / payload.ratePerSecond;
    const wait = dueAt - performance.now();
    if (wait > 1) await sleep(wait);
    // A slow server slows the arrivals down instead of piling them up; the wait is timed.
    while (inFlight >= payload.maxInFlight && !late(dueAt)) await sleep(2);
    // So far behind that the server clearly cannot take this step: the rest stay away (bounded).
    if (late(dueAt)) {
      notStarted = mine.length - k;
      break;
    }
    const user = mine[k]!;
    counts.arrivals += 1;
    inFlight += 1;
    arrivals.push(
      openPage(user, 'arrival', dueAt).then((ok) => {
        inFlight -= 1;
        if (ok) {
          arrived += 1;
          user.live = true;
          startActing(user);
        } else failed += 1;
      }),
    );
  }
  await Promise.race([Promise.all(arrivals), sleep(payload.timeoutMs)]);
  return {
    requested: mine.length,
    arrived,
    // started but not arrived (refused, or not within the timeout)
    failed: Math.max(failed, mine.length - notStarted - arrived),
    notStarted,
    elapsedMs: performance.now() - started,
  };
};

/** Stops scheduling and waits (at most `drainMs`) for the actions under way to finish. */
const pause = async ({ drainMs }: { drainMs: number }): Promise<{ inflight: number }> => {
  if (!paused) {
    paused = true;
    pausedAt = performance.now();
  }
  const until = performance.now() + drainMs;
  while (inflight > 0 && performance.now() < until) await sleep(20);
  return { inflight };
};

const collect = (): CollectResult => {
  const result: CollectResult = {
    histograms: Object.fromEntries(
      TIMED.map((name) => [name, encodeHistogram(histograms[name])]),
    ) as Record<Timed, string>,
    counts: { ...counts },
    statuses,
    failures,
    errorSamples,
    sent,
    receivedSeqs,
    gaps: [...gaps],
    liveUsers: [...users.values()].filter((user) => user.live).length,
    openSockets: [...users.values()].filter((user) => user.ws?.readyState === WebSocket.OPEN)
      .length,
    callsInFlight,
    actionsInFlight: inflight,
    loopDelayP99Ms: Math.round(loopDelay.percentile(99) / 1e4) / 100,
    loopDelayMaxMs: Math.round(loopDelay.max / 1e4) / 100,
  };
  resetStats();
  return result;
};

/**
 * Page loads and opens (not counted) before the first step, a few at once so that every database
 * connection of the server's pool opens and prepares its statements, and the JIT has run. A call
 * not answered with 2xx is counted (the first step then misses: the server was not warmed).
 */
const warmup = async ({ users: count }: { users: number }): Promise<WarmupResult> => {
  const { init: config, population: p } = setup();
  const result: WarmupResult = { calls: 0, failed: 0, samples: [] };
  const call = async (name: string, ...args: Parameters<typeof request>): Promise<void> => {
    result.calls += 1;
    try {
      const answer = await request(...args);
      if (answer.status >= 200 && answer.status <= 299) return;
      result.failed += 1;
      if (result.samples.length < 5) result.samples.push(`${name} ${answer.status}`);
    } catch (error) {
      result.failed += 1;
      const message = error instanceof Error ? error.message : String(error);
      if (result.samples.length < 5) result.samples.push(`${name}: ${message.slice(0, 80)}`);
    }
  };
  const mine: SimUser[] = [];
  for (let index = config.workerIndex; index < Math.min(count, p.users); index += config.workers)
    mine.push(userFor(index));
  const visit = async (user: SimUser) => {
    await call('config', 'GET', paths.config, user.token);
    await call('list', 'GET', withQuery(paths.initialData, '&job_id=&limit=50'), user.token);
    const conversation = pickConversation(user);
    if (conversation >= 0)
      await call('get message', 'POST', withQuery(paths.getMessage), user.token, {
        receiver_id: userIdOf(partnerOf(user, conversation)),
        job_id: p.conversationJob[conversation]!,
      });
  };
  for (let round = 0; round < 2; round += 1)
    for (let i = 0; i < mine.length; i += 8) await Promise.all(mine.slice(i, i + 8).map(visit));
  resetStats();
  return result;
};

/** Drops every socket; their close events then find no user holding them (not counted as drops). */
const closeAll = (): void => {
  closing = true;
  for (const user of users.values()) {
    const ws = user.ws;
    user.ws = null;
    user.live = false;
    ws?.terminate();
  }
};

serveWorker(
  {
    init: (payload: CapacityInit) => {
      // A worker serves one database after the other: forget the previous one's users.
      closeAll();
      users.clear();
      heap.clear();
      paused = true;
      pausedAt = performance.now();
      closing = false;
      localSeq = 0;
      activeLimit = 0;
      init = payload;
      const started = performance.now();
      population = buildCapacityPopulation(payload.population);
      resetStats();
      return {
        users: population.users,
        conversations: population.conversationCandidate.length,
        buildMs: Math.round(performance.now() - started),
      };
    },
    warmup: (payload: { users: number }) => warmup(payload),
    addUsers: (payload: AddUsersRequest) => addUsers(payload),
    pause: (payload: { drainMs: number }) => pause(payload),
    collect: () => collect(),
    closeAll: () => closeAll(),
  },
  () => {
    closeAll();
    agent.destroy();
  },
);
