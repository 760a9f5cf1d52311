import type { DialectName } from '../../src/server/db/database.js';
import { nearestRank, summarizeEncoded, type LatencySummary } from '../lib/histogram.js';
import type { PacedSend, PacedSendRequest, PacedSendResult } from '../lib/paced-send-worker.js';
import { seedNotify, type NotifyTarget } from '../lib/seed-notify.js';
import type { Scope } from '../lib/scope.js';
import { readDatabaseCpuSeconds } from '../lib/proc.js';
import { callQuery } from '../lib/server.js';
import type { SinkArrival } from '../lib/smtp-sink-worker.js';
import type { WorkerHandle } from '../lib/spawn.js';
import {
  atMost,
  exactly,
  info,
  latencyRows,
  perDialect,
  sizedScenario,
  type Report,
} from '../lib/types.js';

const SIZES = {
  tiny: { receivers: 300, warmup: 30, seconds: 5, senders: 10, delaySeconds: 2, drainSeconds: 30 },
  full: {
    receivers: 10_000,
    warmup: 400,
    seconds: 60,
    senders: 100,
    delaySeconds: 5,
    drainSeconds: 120,
  },
};
type Config = (typeof SIZES)['full'];

/** Send p99 with notifications on may be at most this much above the run without them. */
const SEND_P99_RATIO_LIMIT = 1.1;

interface EmailFigures {
  expected: number;
  /** Distinct measured messages whose e-mail arrived. */
  received: number;
  missing: number;
  /** E-mails that arrived more than once (extra copies, measured and warm-up messages). */
  duplicates: number;
  /** E-mails whose Message-ID names no message of the run. */
  unknown: number;
  /** Every e-mail of the run (warm-up included) arrived. */
  allArrived: boolean;
  /** Arrival − due moment, ms, over the measured messages' e-mails (first copy). */
  lateness: { p50: number; p90: number; p99: number; max: number; min: number } | null;
  /** From the first due moment to the last arrival, s. */
  spanSeconds: number | null;
  pendingTasks: number;
  failedTasks: number;
  /** The first task error, if any. */
  firstError: string | undefined;
}

interface PhaseResult {
  notifications: boolean;
  warmup: PacedSendResult;
  measured: PacedSendResult;
  send: LatencySummary;
  serverCpuSeconds: number;
  databaseCpuSeconds: number;
  emails?: EmailFigures;
}

/** `<notify.{receiverId}.{lastChatId}@host>` (notifications.service): the batch's last message id. */
const chatIdOf = (messageId: string): number | undefined => {
  const match = /^<notify\.\d+\.(\d+)@/.exec(messageId);
  return match ? Number(match[1]) : undefined;
};

const toSends = (targets: NotifyTarget[]): PacedSend[] =>
  targets.map((target) => ({
    conversationId: target.conversationId,
    jobId: target.jobId,
    receiverId: target.receiverId,
    senderToken: target.senderToken,
  }));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const analyseEmails = (
  arrivals: SinkArrival[],
  warmup: PacedSendResult,
  measured: PacedSendResult,
  delayMs: number,
): Omit<EmailFigures, 'pendingTasks' | 'failedTasks' | 'firstError'> => {
  const measuredDue = new Map<number, number>();
  for (const stored of measured.stored)
    if (stored) measuredDue.set(stored.chatId, Date.parse(stored.createdAt) + delayMs);
  const warmupIds = new Set(warmup.stored.flatMap((stored) => (stored ? [stored.chatId] : [])));
  const firstArrival = new Map<number, number>();
  let duplicates = 0;
  let unknown = 0;
  for (const arrival of arrivals) {
    const chatId = chatIdOf(arrival.messageId);
    if (chatId === undefined || (!measuredDue.has(chatId) && !warmupIds.has(chatId))) {
      unknown += 1;
      continue;
    }
    if (firstArrival.has(chatId)) duplicates += 1;
    else firstArrival.set(chatId, arrival.at);
  }
  const lateness: number[] = [];
  let lastArrival = 0;
  for (const [chatId, due] of measuredDue) {
    const at = firstArrival.get(chatId);
    if (at === undefined) continue;
    lateness.push(at - due);
    lastArrival = Math.max(lastArrival, at);
  }
  lateness.sort((a, b) => a - b);
  const firstDue = Math.min(...measuredDue.values());
  const received = lateness.length;
  return {
    expected: measuredDue.size,
    received,
    missing: measuredDue.size - received,
    duplicates,
    unknown,
    allArrived: [...warmupIds].every((id) => firstArrival.has(id)) && received === measuredDue.size,
    lateness:
      received === 0
        ? null
        : {
            min: lateness[0] ?? 0,
            p50: nearestRank(lateness, 50),
            p90: nearestRank(lateness, 90),
            p99: nearestRank(lateness, 99),
            max: lateness[lateness.length - 1] ?? 0,
          },
    spanSeconds: received === 0 ? null : Math.round((lastArrival - firstDue) / 100) / 10,
  };
};

/** One run on a fresh, identically seeded database: warm-up sends, then the measured ones. */
const runPhase = async (
  dialect: DialectName,
  config: Config,
  notifications: boolean,
  workers: { sender: WorkerHandle; sink: WorkerHandle; sinkUrl: string },
  log: (message: string) => void,
  scope: Scope,
): Promise<PhaseResult> => {
  const bench = await scope.database(dialect, `notify${notifications ? 'on' : 'off'}`);
  const seed = await seedNotify(bench, {
    senders: config.senders,
    receivers: config.warmup + config.receivers,
  });
  await bench.close();
  log(
    `${dialect}, notifications ${notifications ? 'on' : 'off'}: seeded ${config.senders} senders, ` +
      `${(config.warmup + config.receivers).toLocaleString('en-US')} receivers in ${seed.seedSeconds.toFixed(1)} s`,
  );
  const rate = config.receivers / config.seconds;
  await workers.sink.call('reset');
  const { warmup, measured, serverCpuSeconds, databaseCpuSeconds, arrivals } = await scope.phase(
    async (serverScope) => {
      const server = await serverScope.server(bench, {
        env: {
          NOTIFICATIONS: notifications ? 'on' : 'off',
          SMTP_URL: workers.sinkUrl,
          NOTIFY_EMAIL_DELAY_SECONDS: String(config.delaySeconds),
        },
      });
      const databaseCpu = () => readDatabaseCpuSeconds(dialect);
      let arrivals: SinkArrival[] = [];
      const base = { url: server.url, query: callQuery, rate };
      const warmup = await workers.sender.call<PacedSendResult>(
        'run',
        {
          ...base,
          sends: toSends(seed.targets.slice(0, config.warmup)),
        } satisfies PacedSendRequest,
        120_000,
      );
      const cpuBefore = server.cpuSeconds();
      const databaseCpuBefore = databaseCpu();
      const measured = await workers.sender.call<PacedSendResult>(
        'run',
        { ...base, sends: toSends(seed.targets.slice(config.warmup)) } satisfies PacedSendRequest,
        (config.seconds + 120) * 1000,
      );
      if (server.child.exitCode !== null)
        throw new Error(`the server exited during the sends:\n${server.output().slice(-3000)}`);
      const serverCpuSeconds = server.cpuSeconds() - cpuBefore;
      const databaseCpuSeconds = databaseCpu() - databaseCpuBefore;
      const send = summarizeEncoded(measured.histogram);
      log(
        `  ${measured.ok} sends in ${measured.seconds.toFixed(1)} s: p50 ${send.p50} ms, p99 ${send.p99} ms, ` +
          `max ${send.max} ms, failed ${measured.failed}, server CPU ${serverCpuSeconds.toFixed(1)} s`,
      );
      if (notifications) {
        // Wait for every e-mail (warm-up's too), up to drainSeconds after the last one came due.
        const expected = warmup.ok + measured.ok;
        const lastDue = Math.max(
          ...measured.stored.map((stored) => (stored ? Date.parse(stored.createdAt) : 0)),
        );
        const deadline = lastDue + config.delaySeconds * 1000 + config.drainSeconds * 1000;
        for (;;) {
          const { count } = await workers.sink.call<{ count: number }>('count');
          if (count >= expected || Date.now() > deadline) break;
          await sleep(250);
        }
        // A moment longer, so that copies sent twice are counted too.
        await sleep(1500);
        ({ arrivals } = await workers.sink.call<{ arrivals: SinkArrival[] }>('arrivals'));
        log(`  ${arrivals.length} of ${expected} e-mails arrived`);
      }
      return { warmup, measured, serverCpuSeconds, databaseCpuSeconds, arrivals };
    },
  );
  const result: PhaseResult = {
    notifications,
    warmup,
    measured,
    send: summarizeEncoded(measured.histogram),
    serverCpuSeconds,
    databaseCpuSeconds,
  };
  if (notifications) {
    const tasks = await bench.db.kysely
      .selectFrom('outbox')
      .select(['kind', 'done_at', 'last_error'])
      .execute();
    const failed = tasks.find((task) => task.last_error !== null);
    result.emails = {
      ...analyseEmails(arrivals, warmup, measured, config.delaySeconds * 1000),
      pendingTasks: tasks.filter((task) => task.done_at === null).length,
      failedTasks: tasks.filter((task) => task.last_error !== null).length,
      firstError: failed ? `${failed.kind}: ${failed.last_error?.slice(0, 300)}` : undefined,
    };
  }
  return result;
};

const runOn = async (
  dialect: DialectName,
  config: Config,
  log: (message: string) => void,
  scope: Scope,
): Promise<Report> => {
  const sender = await scope.worker('paced-send-worker.ts', 900_000);
  const { worker: sink, port } = await scope.listening('smtp-sink-worker.ts', null, 900_000);
  const workers = { sender, sink, sinkUrl: `smtp://127.0.0.1:${port}` };
  // Without notifications first, then with them, each on a fresh database seeded the same way.
  const off = await scope.phase((phase) => runPhase(dialect, config, false, workers, log, phase));
  const on = await scope.phase((phase) => runPhase(dialect, config, true, workers, log, phase));
  const emails = on.emails as EmailFigures;
  const late = emails.lateness;
  const ratio = off.send.p99 > 0 ? Math.round((on.send.p99 / off.send.p99) * 100) / 100 : null;
  const rate = Math.round((config.receivers / config.seconds) * 10) / 10;
  const failedSends =
    on.warmup.failed + on.measured.failed + off.warmup.failed + off.measured.failed;
  const rows = [
    info(
      `${dialect}: e-mails due`,
      emails.expected,
      '',
      `one message per receiver, ${rate}/s for ${config.seconds} s, due ${config.delaySeconds} s after the send`,
    ),
    ...latencyRows(
      `${dialect}: due → handed to SMTP`,
      late,
      late
        ? `p90 ${late.p90} ms, max ${late.max} ms; last e-mail ${emails.spanSeconds} s after the first came due`
        : undefined,
    ),
    exactly(`${dialect}: e-mails missing`, emails.missing, 0, '', `${emails.received} received`),
    exactly(`${dialect}: e-mails sent twice`, emails.duplicates, 0),
    info(
      `${dialect}: send p50 / p99, notifications on`,
      on.send.p99,
      'ms',
      `p50 ${on.send.p50} ms, max ${on.send.max} ms`,
    ),
    info(
      `${dialect}: send p50 / p99, NOTIFICATIONS=off`,
      off.send.p99,
      'ms',
      `p50 ${off.send.p50} ms, max ${off.send.max} ms`,
    ),
    atMost(`${dialect}: send p99 on ÷ off`, ratio, SEND_P99_RATIO_LIMIT, '×'),
    exactly(`${dialect}: sends refused or failed`, failedSends, 0),
  ];
  const perSend = (seconds: number, phase: PhaseResult) =>
    phase.measured.ok > 0 ? ((seconds * 1000) / phase.measured.ok).toFixed(2) : '–';
  const notes = [
    `${dialect}: server CPU per send ${perSend(on.serverCpuSeconds, on)} ms with notifications (rule + e-mail included), ` +
      `${perSend(off.serverCpuSeconds, off)} ms without` +
      (dialect === 'postgres'
        ? `; PostgreSQL ${perSend(on.databaseCpuSeconds, on)} ms vs ${perSend(off.databaseCpuSeconds, off)} ms`
        : '') +
      `; outbox after the run: ${emails.pendingTasks} task(s) not done, ${emails.failedTasks} with an error; ` +
      `send generator lag at most ${Math.max(on.measured.maxFireLagMs, off.measured.maxFireLagMs)} ms.`,
  ];
  if (emails.firstError) notes.push(`${dialect} first outbox task error: ${emails.firstError}`);
  const errors = [...on.measured.errors, ...off.measured.errors];
  if (errors.length > 0) notes.push(`${dialect} send errors: ${errors.slice(0, 3).join('; ')}`);
  const checks = {
    [`${dialect}EmailsExpected`]: emails.expected,
    [`${dialect}EmailsReceived`]: emails.received,
    [`${dialect}EmailsDuplicated`]: emails.duplicates,
    [`${dialect}EmailsUnknown`]: emails.unknown,
    [`${dialect}AllArrived`]: emails.allArrived,
    [`${dialect}SentOn`]: on.measured.ok,
    [`${dialect}SentOff`]: off.measured.ok,
    [`${dialect}FailedSends`]: failedSends,
    [`${dialect}PendingTasks`]: emails.pendingTasks,
  };
  return { rows, checks, notes };
};

/**
 * Notification e-mails under load: `receivers` messages sent at a steady rate over `seconds`, one
 * per receiver, each due `delaySeconds` later, so e-mails come due while the sends go on; how late
 * after its due moment each e-mail reaches an SMTP sink, and the sends' latency against the same
 * run with NOTIFICATIONS=off.
 */
export const notifications = sizedScenario(SIZES, {
  name: 'notifications',
  title: 'Notification e-mails: due → handed to SMTP, and sends with/without (SQLite, PostgreSQL)',
  run: ({ config, log, scope }) => {
    return perDialect(
      scope,
      ['sqlite', 'postgres'],
      [
        `Open loop: ${config.receivers.toLocaleString('en-US')} sends at ${Math.round((config.receivers / config.seconds) * 10) / 10}/s (after ${config.warmup} warm-up sends at the same rate, to other receivers), one per receiver from ${config.senders} senders, NOTIFY_EMAIL_DELAY_SECONDS=${config.delaySeconds}, OUTBOX_POLL_MS at its default; send latency from the first byte written to the last byte read (HDR histogram). Due moment = the message's created_at (from the send's answer) + the delay; arrival = Date.now() in an SMTP sink process (smtp-server, no parsing beyond the Message-ID) when the message's DATA ended. The run without notifications (NOTIFICATIONS=off: no outbox insert, no worker tasks) goes first, each run on a fresh database seeded the same way.`,
      ],
      (dialect, dialectScope) => runOn(dialect, config, log, dialectScope),
    );
  },
});
