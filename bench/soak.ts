/**
 * Soak: `npm run soak [-- --minutes N] [--database sqlite|postgres]` (not part of `npm test`).
 *
 * One real server process (dist/server/main.js, `npm run build` first) under steady load for N
 * minutes (default 10):
 * - 1,000 steady live connections (two per user, 500 users in 250 conversations), each subscribed
 *   to its user's `private-chat.{id}` through POST /broadcasting/auth with a session cookie and
 *   its CSRF header, as the page does; they answer the server's `pusher:ping`;
 * - 500 churning connections: connect, authorize, subscribe, stay 2–8 s, close, start over;
 * - 50 sends per second through POST /user/send/message (Bearer tokens), spread over the users.
 *
 * Pass criteria: zero errors (failed calls, refused or failed subscriptions, steady sockets
 * dropped, deliveries missing or doubled), delivery p99 stable (no drift: the last third of the
 * run no worse than 1.5 × the first third + 5 ms; no one-minute window over 100 ms), server
 * memory growth under 10 % (the RSS floor, i.e. after garbage collection,
 * right after the warm-up against the floor at the end). Figures go to stdout and
 * bench/results/soak.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { SESSION_COOKIE } from '../src/server/plugins/auth.js';
import { CHAT_MESSAGE_EVENT, userChannelName } from '../src/shared/events.js';
import { paths } from '../src/shared/paths.js';
import { authorizeOverHttp, tokenCall } from '../test-support/http-session.js';
import { RawSocket } from '../test-support/raw-socket.js';
import { sleep, until } from '../test-support/wait.js';
import { createBenchDatabase, insertSession, seedPairs, type SeededUser } from './lib/database.js';
import { createHistogram, recordMs, round, summarize, type Histogram } from './lib/histogram.js';
import { BENCH_APP_KEY, BENCH_PUSHER_KEY, startBenchServer } from './lib/server.js';

interface Options {
  minutes: number;
  steady: number;
  churn: number;
  rate: number;
  database: 'sqlite' | 'postgres';
}

const USAGE = '--minutes N [--steady N --churn N --rate N --database sqlite|postgres]';

const parseOptions = (args: string[]): Options => {
  const { values } = parseArgs({
    args,
    options: {
      minutes: { type: 'string', default: '10' },
      steady: { type: 'string', default: '1000' },
      churn: { type: 'string', default: '500' },
      rate: { type: 'string', default: '50' },
      database: { type: 'string', default: 'sqlite' },
    },
  });
  const { database } = values;
  if (database !== 'sqlite' && database !== 'postgres')
    throw new Error(`--database sqlite|postgres; use ${USAGE}`);
  const options: Options = {
    minutes: Number(values.minutes),
    steady: Number(values.steady),
    churn: Number(values.churn),
    rate: Number(values.rate),
    database,
  };
  if (!(options.minutes > 0)) throw new Error('--minutes must be positive');
  return options;
};

/** No one-minute window's delivery p99 may exceed this. */
const P99_BUDGET_MS = 100;

const log = (line: string) =>
  console.log(`[soak ${new Date().toISOString().slice(11, 19)}] ${line}`);

interface User extends SeededUser {
  cookie: string;
  csrf: string;
  conversationId: number;
  jobId: number;
  peer: number;
}

const errors = {
  sends: 0,
  auth: 0,
  subscriptions: 0,
  steadyDropped: 0,
  socketErrors: 0,
  connectFailures: 0,
  missingDeliveries: 0,
  duplicateDeliveries: 0,
};
const errorSamples: string[] = [];
const fail = (kind: keyof typeof errors, detail: string) => {
  errors[kind] += 1;
  if (errorSamples.length < 20) errorSamples.push(`${kind}: ${detail}`);
};

/**
 * A live connection as the page keeps one, on the harness's raw Pusher socket: connect, authorize
 * over HTTP (session cookie + CSRF header), subscribe, answer pings.
 */
class LiveSocket {
  socket: RawSocket | undefined;
  subscribed = false;
  closing = false;

  constructor(
    private readonly wsUrl: string,
    private readonly baseUrl: string,
    readonly user: User,
    private readonly onChat: (socket: LiveSocket, data: string) => void,
    private readonly onDropped: (socket: LiveSocket, code: number) => void,
  ) {}

  get socketId(): string {
    return this.socket?.socketId ?? '';
  }

  get isOpen(): boolean {
    return this.socket?.isOpen ?? false;
  }

  /** Resolves once subscribed (rejects on any failure on the way). */
  async open(): Promise<void> {
    const socket = await RawSocket.open(this.wsUrl).catch((error: unknown) => {
      if (!this.closing) fail('socketErrors', String(error));
      throw error;
    });
    this.socket = socket;
    socket.onFrame((frame) => {
      if (frame.event === 'pusher:ping') socket.send({ event: 'pusher:pong', data: {} });
      else if (frame.event === 'pusher:error') fail('socketErrors', JSON.stringify(frame));
      else if (frame.event === CHAT_MESSAGE_EVENT && typeof frame.data === 'string')
        this.onChat(this, frame.data);
    });
    void socket.closed.then(({ code }) => {
      if (!this.closing) this.onDropped(this, code);
    });
    const channel = userChannelName(this.user.id);
    const session = { cookie: `${SESSION_COOKIE}=${this.user.cookie}`, csrf: this.user.csrf };
    const response = await authorizeOverHttp(this.baseUrl, session, socket.socketId, channel);
    const body = await response.text();
    if (response.status !== 200) {
      const error = new Error(`auth ${response.status}: ${body.slice(0, 200)}`);
      fail('auth', String(error));
      throw error;
    }
    const answer = await socket.subscribe(channel, (JSON.parse(body) as { auth: string }).auth);
    if (answer.event !== 'pusher_internal:subscription_succeeded') {
      fail('subscriptions', JSON.stringify(answer));
      throw new Error(JSON.stringify(answer));
    }
    this.subscribed = true;
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.socket?.close(3_000);
  }
}

const percentile = (values: number[], p: number): number => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const median = (values: number[]) => percentile(values, 50);

const main = async () => {
  const options = parseOptions(process.argv.slice(2));
  const durationMs = options.minutes * 60_000;
  const windowMs = Math.min(60_000, Math.max(10_000, durationMs / 10));
  const warmupMs = Math.min(60_000, durationMs / 4);
  log(
    `${options.minutes} min, ${options.steady} steady + ${options.churn} churning connections, ${options.rate} sends/s, ${options.database}`,
  );

  // Data: 250 conversations (500 users), a browser session and a token for each user.
  const bench = await createBenchDatabase(options.database, 'soak');
  const pairs = await seedPairs(bench, Math.max(1, Math.ceil(options.steady / 4)));
  const users: User[] = [];
  for (const pair of pairs) {
    for (const [self, other] of [
      [pair.candidate, pair.company],
      [pair.company, pair.candidate],
    ] as const) {
      const session = await insertSession(bench, self.id);
      users.push({
        ...self,
        ...session,
        conversationId: pair.conversationId,
        jobId: pair.jobId,
        peer: other.id,
      });
    }
  }
  await bench.close();
  const server = await startBenchServer({ databaseUrl: bench.url });
  const baseUrl = server.url;
  const wsUrl = `ws://127.0.0.1:${server.port}/app/${BENCH_PUSHER_KEY}?protocol=7&client=soak&version=1.0`;
  log(`server pid ${server.child.pid} on ${baseUrl}; ${users.length} users`);

  // Deliveries: every send must reach each steady socket of its sender and receiver exactly once.
  const sendStartedAt = new Map<number, number>();
  const expectedBy = new Map<number, LiveSocket[]>();
  const received = new Map<LiveSocket, Set<number>>();
  const steadyOf = new Map<number, LiveSocket[]>();
  let currentWindow: Histogram = createHistogram();
  const windows: {
    minute: number;
    sends: number;
    deliveries: number;
    p50: number;
    p99: number;
    max: number;
  }[] = [];
  const overall = createHistogram();
  let sendsInWindow = 0;
  let deliveriesInWindow = 0;
  let measuring = false;

  /** Ends the current window (`minute`: its end, in minutes into the run) and opens the next. */
  const closeWindow = (minute: number) => {
    const { p50, p99, max } = summarize(currentWindow);
    windows.push({ minute, sends: sendsInWindow, deliveries: deliveriesInWindow, p50, p99, max });
    currentWindow = createHistogram();
    sendsInWindow = 0;
    deliveriesInWindow = 0;
  };

  const onChat = (socket: LiveSocket, data: string) => {
    const seq = Number(/"message":"soak (\d+)"/.exec(data)?.[1]);
    if (!Number.isInteger(seq)) return;
    const seen = received.get(socket);
    if (!seen) return; // a churning socket: not counted
    if (seen.has(seq)) fail('duplicateDeliveries', `seq ${seq} twice on ${socket.socketId}`);
    seen.add(seq);
    const started = sendStartedAt.get(seq);
    if (started !== undefined && measuring) {
      const ms = performance.now() - started;
      recordMs(currentWindow, ms);
      recordMs(overall, ms);
      deliveriesInWindow += 1;
    }
  };
  const onSteadyDropped = (socket: LiveSocket, code: number) =>
    fail('steadyDropped', `${socket.socketId} closed ${code}`);

  // 1,000 steady connections, opened 100 at a time.
  const steady: LiveSocket[] = [];
  for (let i = 0; i < options.steady; i++) {
    const socket = new LiveSocket(
      wsUrl,
      baseUrl,
      users[i % users.length]!,
      onChat,
      onSteadyDropped,
    );
    steady.push(socket);
    received.set(socket, new Set());
    const list = steadyOf.get(socket.user.id) ?? [];
    list.push(socket);
    steadyOf.set(socket.user.id, list);
  }
  for (let i = 0; i < steady.length; i += 100) {
    await Promise.all(
      steady
        .slice(i, i + 100)
        .map((socket) =>
          socket.open().catch((error: unknown) => fail('connectFailures', String(error))),
        ),
    );
  }
  log(`${steady.filter((socket) => socket.subscribed).length} steady connections subscribed`);

  // 500 churning connections.
  let running = true;
  let churnCycles = 0;
  const churnLoop = async (slot: number) => {
    await sleep((slot % 50) * 100); // spread the start
    while (running) {
      const user = users[Math.floor(Math.random() * users.length)]!;
      const socket = new LiveSocket(
        wsUrl,
        baseUrl,
        user,
        () => undefined,
        () => undefined,
      );
      try {
        await socket.open();
        await sleep(2_000 + Math.random() * 6_000);
      } catch (error) {
        if (running) fail('connectFailures', `churn: ${String(error)}`);
        await sleep(500);
      } finally {
        await socket.close();
      }
      churnCycles += 1;
    }
  };
  const churners = Array.from({ length: options.churn }, (_, slot) => churnLoop(slot));

  // 50 sends per second.
  let seq = 0;
  let acked = 0;
  let inFlight = 0;
  const send = async () => {
    const id = ++seq;
    const user = users[Math.floor(Math.random() * users.length)]!;
    sendStartedAt.set(id, performance.now());
    inFlight += 1;
    try {
      const response = await tokenCall(baseUrl, user.token, BENCH_APP_KEY)(
        'POST',
        paths.sendMessage,
        {
          receiver_id: user.peer,
          messenger_user: user.conversationId,
          job_id: user.jobId,
          message: `soak ${id}`,
        },
      );
      await response.arrayBuffer();
      if (response.status !== 200) {
        fail('sends', `status ${response.status}`);
        return;
      }
      acked += 1;
      if (measuring) sendsInWindow += 1;
      expectedBy.set(id, [...(steadyOf.get(user.id) ?? []), ...(steadyOf.get(user.peer) ?? [])]);
    } catch (error) {
      fail('sends', String(error));
    } finally {
      inFlight -= 1;
    }
  };

  const rss: { at: number; bytes: number }[] = [];
  const loopDelay = monitorEventLoopDelay({ resolution: 20 });
  loopDelay.enable();
  const started = Date.now();
  measuring = true;
  let windowStart = started;
  const sendInterval = 1000 / options.rate;
  let nextSend = performance.now();
  const sampler = setInterval(() => {
    rss.push({ at: Date.now() - started, bytes: server.rssBytes() });
  }, 5_000);
  let lastReport = started;
  while (Date.now() - started < durationMs) {
    const now = performance.now();
    while (nextSend <= now) {
      void send();
      nextSend += sendInterval;
    }
    if (Date.now() - windowStart >= windowMs) {
      closeWindow(round((windowStart - started + windowMs) / 60_000));
      windowStart += windowMs;
    }
    if (Date.now() - lastReport >= 30_000) {
      lastReport = Date.now();
      const last = windows.at(-1);
      log(
        `t=${Math.round((Date.now() - started) / 1000)}s sends=${acked} churn cycles=${churnCycles} rss=${Math.round(server.rssBytes() / 1048576)} MiB` +
          (last ? ` last window p99=${last.p99} ms` : '') +
          ` errors=${Object.values(errors).reduce((a, b) => a + b, 0)}`,
      );
    }
    await sleep(Math.max(1, Math.min(20, nextSend - performance.now())));
  }
  clearInterval(sampler);
  // Let the last sends answer and deliver, then close the last (partial) window.
  await until(() => inFlight === 0, 'the last sends answered', 10_000).catch(() => undefined);
  await sleep(3_000);
  measuring = false;
  if (deliveriesInWindow > 0) closeWindow(round((Date.now() - started) / 60_000));
  running = false;
  loopDelay.disable();

  for (const [id, sockets] of expectedBy) {
    for (const socket of sockets) {
      if (!received.get(socket)?.has(id))
        fail('missingDeliveries', `seq ${id} never reached ${socket.socketId}`);
    }
  }
  const steadyStillOpen = steady.filter((socket) => socket.isOpen).length;
  await Promise.all(churners);
  await Promise.all(steady.map((socket) => socket.close()));
  const serverCpu = server.cpuSeconds();
  await server.stop();
  await bench.drop();

  // Memory: RSS is a garbage-collection sawtooth (the heap grows until a major GC), so compare
  // floors: the lowest sample of a span right after the warm-up against the lowest of the last
  // span. A leak raises the floor; garbage waiting for the collector does not.
  const after = (from: number, to: number) =>
    rss.filter((sample) => sample.at > from && sample.at <= to).map((sample) => sample.bytes);
  const span = Math.min(120_000, (durationMs - warmupMs) / 3);
  const lowest = (values: number[]) => (values.length ? Math.min(...values) : 0);
  const baseline = lowest(after(warmupMs, warmupMs + span));
  const final = lowest(after(durationMs - span, durationMs));
  const peak = Math.max(0, ...rss.map((sample) => sample.bytes));
  const growth = baseline > 0 ? final / baseline - 1 : 0;
  // Stable: no upward drift (the last third of the run no worse than 1.5 × the first third,
  // +5 ms) and no window above a chat's delivery budget (100 ms). Single windows may spike with
  // a major GC of the server or load from other processes on the machine; they are reported.
  const fullWindows = windows.filter((window) => window.deliveries > 0);
  const p99s = fullWindows.map((window) => window.p99);
  const medianP99 = median(p99s);
  const worstP99 = Math.max(0, ...p99s);
  const third = Math.max(1, Math.floor(p99s.length / 3));
  const mean = (values: number[]) =>
    values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
  const firstThirdP99 = round(mean(p99s.slice(0, third)));
  const lastThirdP99 = round(mean(p99s.slice(-third)));
  const p99Stable = lastThirdP99 <= 1.5 * firstThirdP99 + 5 && worstP99 <= P99_BUDGET_MS;
  const totalErrors = Object.values(errors).reduce((a, b) => a + b, 0);
  const all = summarize(overall);
  const report = {
    ranAt: new Date(started).toISOString(),
    options,
    sends: { attempted: seq, acknowledged: acked, perSecond: round(acked / (durationMs / 1000)) },
    connections: { steady: options.steady, steadyStillOpen, churning: options.churn, churnCycles },
    errors,
    errorSamples,
    delivery: {
      overall: { count: all.count, p50: all.p50, p99: all.p99, max: all.max },
      windows,
      medianWindowP99: medianP99,
      worstWindowP99: worstP99,
      firstThirdP99,
      lastThirdP99,
      p99Stable,
    },
    memory: {
      baselineMiB: round(baseline / 1048576),
      finalMiB: round(final / 1048576),
      growthPercent: round(growth * 100),
      peakMiB: round(peak / 1048576),
      method: `lowest RSS sample of the ${round(span / 1000)} s after the warm-up vs of the last ${round(span / 1000)} s (samples every 5 s)`,
      samplesMiB: rss.map((sample) => round(sample.bytes / 1048576)),
    },
    serverCpuSeconds: round(serverCpu),
    loadGeneratorLoopDelayP99Ms: round(loopDelay.percentile(99) / 1e6),
    pass: totalErrors === 0 && p99Stable && growth < 0.1 && steadyStillOpen === options.steady,
  };
  const out = resolve(import.meta.dirname, 'results/soak.json');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);

  console.log('\nwindow  sends  deliveries  p50 ms  p99 ms  max ms');
  for (const window of windows) {
    console.log(
      `${String(window.minute).padStart(6)}  ${String(window.sends).padStart(5)}  ${String(window.deliveries).padStart(10)}  ${String(window.p50).padStart(6)}  ${String(window.p99).padStart(6)}  ${String(window.max).padStart(6)}`,
    );
  }
  console.log(
    `\nsends ${acked}/${seq} (${report.sends.perSecond}/s), deliveries ${all.count}, p50 ${all.p50} ms, p99 ${all.p99} ms (window p99: median ${medianP99}, worst ${worstP99}, first third ${firstThirdP99}, last third ${lastThirdP99}: ${p99Stable ? 'stable' : 'NOT stable'})`,
  );
  console.log(
    `steady connections still open ${steadyStillOpen}/${options.steady}, churn cycles ${churnCycles}`,
  );
  console.log(
    `server RSS floor ${report.memory.baselineMiB} → ${report.memory.finalMiB} MiB (${report.memory.growthPercent} %), peak ${report.memory.peakMiB} MiB, server CPU ${report.serverCpuSeconds} s`,
  );
  console.log(
    `errors ${totalErrors} ${JSON.stringify(errors)}${errorSamples.length ? `\n  ${errorSamples.join('\n  ')}` : ''}`,
  );
  console.log(`${report.pass ? 'PASS' : 'FAIL'} (figures in ${out})`);
  process.exitCode = report.pass ? 0 : 1;
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
