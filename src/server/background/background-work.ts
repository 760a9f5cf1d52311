import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Config } from '../config.js';
import type { PresenceAnnouncements } from '../modules/presence/presence.module.js';
import type { Broadcaster } from '../realtime/broadcaster-port.js';
import type { OutboxOutcome } from '../outbox/outbox-worker.js';
import { PRESENCE_CHANGED_EVENT } from '../../shared/events.js';
import {
  fromBackgroundSchema,
  toWorkerData,
  type FromBackground,
  type ToBackground,
} from './background-protocol.js';

/** Where background work runs: beside the requests (`inline`, tests) or in a thread of its own. */
export type BackgroundMode = 'inline' | 'thread';

/** Background work as the request thread sees it, in either mode. */
export interface BackgroundWork {
  start: () => void;
  /** No new work; claimed outbox tasks still running after a bounded time are handed back. */
  stop: () => Promise<void>;
}

export interface BackgroundThreadLogger {
  info: (details: object, message: string) => void;
  warn: (details: object, message: string) => void;
  error: (details: object, message: string) => void;
}

export interface BackgroundThreadOptions {
  config: Config;
  /** PostgreSQL with a schema of its own (tests): the thread uses the same one. */
  searchPath?: string | undefined;
  logger: BackgroundThreadLogger;
  /** Who is online: the thread asks the request thread's presence store. */
  presence: { onlineAmong(ids: readonly number[]): Promise<ReadonlySet<number>> };
  /** Where the presence events the thread hands back are published (this process's sockets). */
  publisher: Pick<Broadcaster, 'publish'>;
  /**
   * What follows a change of presence, done here when the thread cannot: before it started, while
   * it restarts, after it stopped, or when it failed or did not answer in `presenceTimeoutMs`
   * (each step is safe to do twice: the same last seen, the same event, the same e-mails).
   */
  presenceFallback: PresenceAnnouncements;
  presenceTimeoutMs?: number;
  /** How each outbox attempt ended in the thread (metrics). */
  onOutboxOutcome: (kind: string, outcome: OutboxOutcome) => void;
  /** How long a stop waits for the thread to hand its tasks back and exit before ending it. */
  stopTimeoutMs?: number;
  /** A thread that died is started again after this, doubled per death in a row, up to `capMs`. */
  restartDelay?: { baseMs: number; capMs: number };
}

/** A thread that ran at least this long before it died starts again after the base delay. */
const STABLE_AFTER_MS = 60_000;

/**
 * The thread's entry: the compiled file beside this one (dist/server/background), or, when this
 * runs from src/ (vitest, tsx; from the checkout, where the `tsx` dev dependency resolves), a
 * script that registers tsx's loader in the thread and imports the TypeScript source (`--import
 * tsx` in a worker's execArgv is not applied to it on Node 20).
 */
const threadEntry = (): { source: URL | string; eval: boolean } => {
  const built = new URL('./background-thread.js', import.meta.url);
  if (existsSync(fileURLToPath(built))) return { source: built, eval: false };
  const source = JSON.stringify(new URL('./background-thread.ts', import.meta.url).href);
  return {
    // (a failure to load is thrown outside the promise: the thread dies of it, as the built one would)
    source: `import('tsx/esm/api').then(({ register }) => { register(); return import(${source}); }).catch((error) => setImmediate(() => { throw error; }));`,
    eval: true,
  };
};

/**
 * Runs this process's background work (e-mails, webhooks, upload sweeps) in a worker thread with a
 * database connection of its own (ADR 017). The request thread answers its presence questions and
 * counts its outbox outcomes; a thread that dies is logged and started again (bounded backoff);
 * `stop` asks it to hand back its claimed tasks and exit, and ends it after `stopTimeoutMs`.
 */
export const createBackgroundThread = (
  options: BackgroundThreadOptions,
): BackgroundWork & { presenceAnnouncements: PresenceAnnouncements } => {
  const { logger } = options;
  const stopTimeoutMs = options.stopTimeoutMs ?? 15_000;
  const restartDelay = options.restartDelay ?? { baseMs: 1000, capMs: 30_000 };
  const entry = threadEntry();
  let worker: Worker | undefined;
  let exited: Promise<void> = Promise.resolve();
  let restartTimer: NodeJS.Timeout | undefined;
  let deathsInARow = 0;
  let stopping = false;

  const answer = (to: Worker, message: ToBackground) => to.postMessage(message);

  // Changes of presence handed to the thread, until it says they are done.
  const presenceTimeoutMs = options.presenceTimeoutMs ?? 30_000;
  let nextPresenceId = 0;
  const presenceCalls = new Map<
    number,
    { resolve: (told: number) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }
  >();
  const settlePresence = (id: number, outcome: { told: number } | { error: Error }) => {
    const call = presenceCalls.get(id);
    if (!call) return;
    presenceCalls.delete(id);
    clearTimeout(call.timer);
    if ('told' in outcome) call.resolve(outcome.told);
    else call.reject(outcome.error);
  };
  const failPresenceCalls = (why: string) => {
    for (const id of [...presenceCalls.keys()]) settlePresence(id, { error: new Error(why) });
  };
  /** Hands a change to the thread; done here instead when there is no thread, or it fails. */
  const inThread = (
    message:
      | Omit<Extract<ToBackground, { type: 'presenceAnnounce' }>, 'id'>
      | Omit<Extract<ToBackground, { type: 'presenceWentOffline' }>, 'id'>,
    here: () => Promise<number>,
  ): Promise<number> => {
    const thread = worker;
    if (!thread || stopping) return here();
    nextPresenceId += 1;
    const id = nextPresenceId;
    const handed = new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          settlePresence(id, {
            error: new Error(`no answer from the background thread in ${presenceTimeoutMs} ms`),
          }),
        presenceTimeoutMs,
      );
      timer.unref();
      presenceCalls.set(id, { resolve, reject, timer });
    });
    answer(thread, { ...message, id });
    return handed.catch((error: unknown) => {
      logger.warn({ err: error }, 'background: presence done on the request thread instead');
      return here();
    });
  };
  const presenceAnnouncements: PresenceAnnouncements = {
    announce: (userId, event, { evenIfHidden = false } = {}) =>
      inThread({ type: 'presenceAnnounce', userId, event, evenIfHidden }, () =>
        options.presenceFallback.announce(userId, event, { evenIfHidden }),
      ),
    // a block's request tells the pair itself (not background work)
    pairVisibilityChanged: (pair, visible) =>
      options.presenceFallback.pairVisibilityChanged(pair, visible),
    wentOffline: (userId, at) =>
      inThread({ type: 'presenceWentOffline', userId, at }, () =>
        options.presenceFallback.wentOffline(userId, at).then(() => 0),
      ).then(() => undefined),
  };

  const onMessage = (from: Worker, raw: unknown) => {
    const parsed = fromBackgroundSchema.safeParse(raw);
    if (!parsed.success) {
      logger.warn({ message: raw }, 'background: an unknown message from the thread');
      return;
    }
    const message: FromBackground = parsed.data;
    switch (message.type) {
      case 'started':
        break;
      case 'outboxOutcome':
        options.onOutboxOutcome(message.kind, message.outcome);
        break;
      case 'presencePublish':
        options.publisher
          .publish(message.channels, PRESENCE_CHANGED_EVENT, message.event)
          .catch((error: unknown) =>
            logger.warn({ err: error }, 'presence: an announcement could not be published'),
          );
        break;
      case 'presenceDone':
        settlePresence(message.id, { told: message.told });
        break;
      case 'presenceFailed':
        settlePresence(message.id, { error: new Error(message.message) });
        break;
      case 'onlineAmong':
        options.presence.onlineAmong(message.ids).then(
          (online) => answer(from, { type: 'onlineAmong', id: message.id, online: [...online] }),
          (error: unknown) =>
            answer(from, {
              type: 'onlineAmongFailed',
              id: message.id,
              message: error instanceof Error ? error.message : String(error),
            }),
        );
        break;
    }
  };

  const spawn = () => {
    restartTimer = undefined;
    if (stopping) return;
    const startedAt = Date.now();
    const thread = new Worker(entry.source, {
      eval: entry.eval,
      workerData: toWorkerData(options.config, options.searchPath),
    });
    worker = thread;
    thread.on('message', (raw: unknown) => onMessage(thread, raw));
    thread.on('error', (error: unknown) =>
      logger.error({ err: error }, 'background: the thread failed'),
    );
    exited = new Promise((resolve) =>
      thread.once('exit', (code) => {
        if (worker === thread) worker = undefined;
        // what it had not finished is done here (each step is safe to do twice)
        failPresenceCalls('the background thread exited');
        resolve();
        if (stopping) return;
        // Never silently gone: said, and started again after a pause that grows while it keeps dying.
        deathsInARow = Date.now() - startedAt >= STABLE_AFTER_MS ? 1 : deathsInARow + 1;
        const delay = Math.min(
          restartDelay.capMs,
          restartDelay.baseMs * 2 ** Math.min(deathsInARow - 1, 20),
        );
        logger.error(
          { code, restartInMs: delay },
          'background: the thread exited unasked; starting it again',
        );
        restartTimer = setTimeout(spawn, delay);
        restartTimer.unref();
      }),
    );
  };

  return {
    presenceAnnouncements,
    start: () => {
      if (worker || restartTimer || stopping) return;
      spawn();
    },
    stop: async () => {
      stopping = true;
      if (restartTimer) clearTimeout(restartTimer);
      restartTimer = undefined;
      const thread = worker;
      if (!thread) return;
      answer(thread, { type: 'stop' });
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), stopTimeoutMs);
      });
      if (await Promise.race([exited.then(() => false), timedOut])) {
        logger.error({ stopTimeoutMs }, 'background: the thread did not stop in time; ending it');
        await thread.terminate();
      }
      clearTimeout(timer);
      logger.info({}, 'background: the thread has stopped');
    },
  };
};
