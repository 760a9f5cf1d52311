import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Outbox, OutboxTask } from './outbox.js';

export interface Backoff {
  /** The delay after the first failure; it doubles with each further one. */
  baseMs: number;
  capMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { baseMs: 30_000, capMs: 3_600_000 };

/**
 * How long to wait after the `attempts`-th failure: base · 2^(attempts−1), capped, with "equal
 * jitter" (between half and all of it) so that tasks failing together do not retry together.
 */
export const backoffDelay = (
  attempts: number,
  backoff: Backoff = DEFAULT_BACKOFF,
  random: () => number = Math.random,
): number => {
  const exponential = Math.min(
    backoff.capMs,
    backoff.baseMs * 2 ** Math.min(Math.max(attempts - 1, 0), 30),
  );
  return Math.round(exponential / 2 + (exponential / 2) * random());
};

export interface OutboxHandlerContext {
  task: OutboxTask;
  /** Aborted when the handler's time is up (or the worker stops without waiting longer). */
  signal: AbortSignal;
}

export type OutboxHandler<T> = (payload: T, context: OutboxHandlerContext) => Promise<void>;

export interface OutboxHandlerOptions<T> {
  /** Checks the stored JSON (a zod schema's `parse`); a throw counts as a failed attempt. */
  parse?: (payload: unknown) => T;
  backoff?: Backoff;
  /** After this many failed attempts the task is given up (done, with its last error)… */
  maxAttempts?: number;
  /** …and only once it is at least this old (ms since it was enqueued): "retry for 24 hours". */
  minRetryMs?: number;
  /** A handler still running after this long counts as failed; must be well under the lease. */
  timeoutMs?: number;
  /**
   * At most this many of this kind run at once (default: all of the worker's slots), so a kind
   * whose handlers hang (a webhook receiver that does not answer) cannot hold every slot.
   */
  concurrency?: number;
}

interface Registration {
  handler: OutboxHandler<unknown>;
  parse: (payload: unknown) => unknown;
  backoff: Backoff;
  maxAttempts: number;
  minRetryMs: number;
  timeoutMs: number;
  concurrency: number;
}

export interface OutboxLogger {
  warn: (details: object, message: string) => void;
  error: (details: object, message: string) => void;
}

export interface OutboxWorkerOptions {
  outbox: Outbox;
  /** Between polls when nothing was due. */
  pollMs: number;
  /** How long a claimed task stays this worker's; after it, another worker may take it. */
  leaseMs?: number;
  /** Handlers running at once. */
  concurrency?: number;
  /** How long `close` waits for running handlers. */
  stopTimeoutMs?: number;
  workerId?: string;
  /** Finished tasks older than this are deleted (every `purgeEveryMs`, default 10 min). Unset: kept. */
  retentionMs?: number;
  purgeEveryMs?: number;
  /** For handlers registered without a backoff of their own. */
  backoff?: Backoff;
  random?: () => number;
  logger?: OutboxLogger;
  /** Told how each attempt ended (metrics). */
  onOutcome?: (kind: string, outcome: OutboxOutcome) => void;
}

/** How an attempt ended: done, to be tried again, or given up. */
export type OutboxOutcome = 'done' | 'retry' | 'gave_up';

export const DEFAULT_LEASE_MS = 5 * 60_000;
export const DEFAULT_HANDLER_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_ATTEMPTS = 10;
/** The shortest wait between polls when a task comes due sooner than pollMs. */
export const MIN_POLL_GAP_MS = 100;

class WorkerStopped extends Error {
  constructor() {
    super('outbox worker stopped');
  }
}

class HandlerTimeout extends Error {
  constructor(ms: number) {
    super(`handler timed out after ${ms} ms`);
  }
}

const errorText = (error: unknown): string =>
  error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);

const silent: OutboxLogger = { warn: () => undefined, error: () => undefined };

/**
 * Runs the outbox's due tasks with the handler registered for their kind: claims (only kinds it
 * has handlers for, only as many as it has free slots), runs, then completes or schedules a retry
 * with backoff. A handler gets its parsed payload and an AbortSignal; it is given up on after its
 * timeout, which is shorter than the lease, so no other worker takes a task that is still running
 * here (lease renewal is not needed).
 */
export const createOutboxWorker = (options: OutboxWorkerOptions) => {
  const { outbox, pollMs } = options;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const concurrency = options.concurrency ?? 10;
  const stopTimeoutMs = options.stopTimeoutMs ?? 10_000;
  const random = options.random ?? Math.random;
  const logger = options.logger ?? silent;
  const workerId =
    options.workerId ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const registrations = new Map<string, Registration>();
  const running = new Map<number, { kind: string; done: Promise<void>; abort: AbortController }>();
  let timer: NodeJS.Timeout | undefined;
  let purgeTimer: NodeJS.Timeout | undefined;
  let polling: Promise<void> | undefined;
  let started = false;
  let stopping = false;
  /** The last poll filled every free slot: more may be due, so freed slots are refilled at once. */
  let backlog = false;
  const refillAt = Math.ceil(concurrency / 2);
  /** A slot was freed while a poll was running: poll again as soon as it ends. */
  let refillAfterPoll = false;

  const runHandler = async (
    registration: Registration,
    task: OutboxTask,
    abort: AbortController,
  ) => {
    let timeout: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timeout = setTimeout(() => {
        abort.abort(new HandlerTimeout(registration.timeoutMs));
        reject(new HandlerTimeout(registration.timeoutMs));
      }, registration.timeoutMs);
    });
    // a stop aborts the attempt: it ends now, whatever the handler does with its signal
    const stopped = new Promise<never>((_, reject) =>
      abort.signal.addEventListener(
        'abort',
        () => {
          if (abort.signal.reason instanceof WorkerStopped) reject(abort.signal.reason);
        },
        { once: true },
      ),
    );
    try {
      const payload = registration.parse(JSON.parse(task.payload));
      await Promise.race([
        registration.handler(payload, { task, signal: abort.signal }),
        timedOut,
        stopped,
      ]);
    } finally {
      clearTimeout(timeout);
    }
  };

  const run = async (task: OutboxTask, abort: AbortController): Promise<void> => {
    const registration = registrations.get(task.kind);
    if (!registration) return; // only registered kinds are claimed
    try {
      await runHandler(registration, task, abort);
    } catch (error) {
      if (error instanceof WorkerStopped) {
        // A stop cut it short: not a failed attempt; another worker takes it at once.
        await outbox
          .release(task.id, workerId)
          .catch((releaseError: unknown) =>
            logger.warn({ task: task.id, err: releaseError }, 'outbox: could not hand a task back'),
          );
        return;
      }
      const attempts = task.attempts + 1;
      const message = errorText(error);
      try {
        const age = outbox.now().getTime() - Date.parse(task.created_at);
        if (attempts >= registration.maxAttempts && age >= registration.minRetryMs) {
          logger.error({ task: task.id, kind: task.kind, attempts, err: error }, 'outbox: gave up');
          options.onOutcome?.(task.kind, 'gave_up');
          await outbox.giveUp(task.id, workerId, message);
        } else {
          const delay = backoffDelay(attempts, registration.backoff, random);
          logger.warn(
            { task: task.id, kind: task.kind, attempts, err: error },
            'outbox: will retry',
          );
          options.onOutcome?.(task.kind, 'retry');
          await outbox.fail(task.id, workerId, message, new Date(outbox.now().getTime() + delay));
        }
      } catch (writeError) {
        // The lease runs out and the task is claimed again.
        logger.error({ task: task.id, err: writeError }, 'outbox: could not record a failure');
      }
      return;
    }
    options.onOutcome?.(task.kind, 'done');
    try {
      if (!(await outbox.complete(task.id, workerId)))
        logger.warn({ task: task.id, kind: task.kind }, 'outbox: lease lost before completion');
    } catch (error) {
      // Done but not marked: it runs again after the lease (at least once; ADR 013).
      logger.error({ task: task.id, err: error }, 'outbox: could not mark a task done');
    }
  };

  /**
   * Claims what is due and free slots allow, starts it; `full`: a claim got all it asked for, so
   * more may be due. Kinds without a concurrency of their own share one claim; a kind with one is
   * claimed alone, within what it has left.
   */
  const claimAndRun = async (): Promise<{
    claimed: number;
    full: boolean;
    done: Promise<void>;
  }> => {
    const started: Promise<void>[] = [];
    let full = false;
    const claimFor = async (kinds: string[], limit: number) => {
      if (limit <= 0 || kinds.length === 0) return;
      const tasks = await outbox.claim(workerId, kinds, limit, leaseMs);
      if (tasks.length === limit) full = true;
      for (const task of tasks) {
        const abort = new AbortController();
        const done = run(task, abort).finally(() => {
          running.delete(task.id);
          // Refill once half the slots are free: one claim for several tasks, not one per task.
          if (backlog && concurrency - running.size >= refillAt) refill();
        });
        running.set(task.id, { kind: task.kind, done, abort });
        started.push(done);
      }
    };
    const shared: string[] = [];
    const limited: [string, number][] = [];
    for (const [kind, registration] of registrations) {
      if (registration.concurrency >= concurrency) shared.push(kind);
      else limited.push([kind, registration.concurrency]);
    }
    await claimFor(shared, concurrency - running.size);
    for (const [kind, limit] of limited) {
      let runningOfKind = 0;
      for (const entry of running.values()) if (entry.kind === kind) runningOfKind += 1;
      await claimFor([kind], Math.min(concurrency - running.size, limit - runningOfKind));
    }
    return { claimed: started.length, full, done: Promise.all(started).then(() => undefined) };
  };

  const poll = async () => {
    timer = undefined;
    if (stopping) return;
    refillAfterPoll = false;
    try {
      const { full } = await claimAndRun();
      // A full batch: more may be due; each slot is claimed again as soon as it is free (refill),
      // rather than after pollMs (one batch per poll would cap the rate at `concurrency` per pollMs).
      backlog = full;
    } catch (error) {
      backlog = false;
      logger.warn({ err: error }, 'outbox: claim failed');
    }
    if (stopping) return;
    const soon = backlog && (refillAfterPoll || concurrency - running.size >= refillAt);
    const wait = soon ? 0 : await nextPollIn();
    if (!stopping) timer = setTimeout(tick, wait);
  };
  /**
   * Without a backlog: until the next task is due if that is sooner than pollMs (at least
   * MIN_POLL_GAP_MS), so tasks coming due under load are taken a few at a time as they come due
   * rather than all at once every pollMs (a burst that held up the instance's requests).
   */
  const nextPollIn = async (): Promise<number> => {
    try {
      const next = await outbox.nextRunAt([...registrations.keys()]);
      if (!next) return pollMs;
      const wait = next.getTime() - outbox.now().getTime();
      return Math.min(pollMs, Math.max(MIN_POLL_GAP_MS, wait));
    } catch {
      return pollMs;
    }
  };
  const tick = () => {
    polling = poll().finally(() => (polling = undefined));
  };
  /** A slot was freed during a backlog: claim for it now instead of waiting for the next poll. */
  const refill = () => {
    if (!started || stopping) return;
    if (polling) {
      refillAfterPoll = true;
      return;
    }
    if (timer) clearTimeout(timer);
    tick();
  };

  return {
    id: workerId,
    /** Tasks this worker runs at once. */
    concurrency,

    /** Handles tasks of `kind`; register before they become due (unregistered kinds wait). */
    register: <T>(
      kind: string,
      handler: OutboxHandler<T>,
      handlerOptions: OutboxHandlerOptions<T> = {},
    ) => {
      if (registrations.has(kind)) throw new Error(`outbox: "${kind}" already has a handler`);
      const timeoutMs = handlerOptions.timeoutMs ?? DEFAULT_HANDLER_TIMEOUT_MS;
      if (timeoutMs * 2 > leaseMs)
        throw new Error(
          `outbox: "${kind}" handler timeout must be at most half the lease (${leaseMs} ms)`,
        );
      registrations.set(kind, {
        handler: handler as OutboxHandler<unknown>,
        parse: handlerOptions.parse ?? ((payload) => payload),
        backoff: handlerOptions.backoff ?? options.backoff ?? DEFAULT_BACKOFF,
        maxAttempts: handlerOptions.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
        minRetryMs: handlerOptions.minRetryMs ?? 0,
        concurrency: Math.min(handlerOptions.concurrency ?? concurrency, concurrency),
        timeoutMs,
      });
    },

    /** Polls every `pollMs` (and purges old finished tasks) until `close`. */
    start: () => {
      if (started || stopping) return;
      started = true;
      tick();
      const { retentionMs } = options;
      if (retentionMs !== undefined) {
        const purge = () =>
          outbox
            .purgeDone(retentionMs)
            .catch((error: unknown) => logger.warn({ err: error }, 'outbox: purge failed'));
        purgeTimer = setInterval(() => void purge(), options.purgeEveryMs ?? 600_000);
        purgeTimer.unref();
      }
    },

    /** One poll without the timer (tests, tools): resolves when the claimed tasks are finished. */
    runOnce: async (): Promise<number> => {
      const { claimed, done } = await claimAndRun();
      await done;
      return claimed;
    },

    /** Handlers running now. */
    get inFlight() {
      return running.size;
    },

    /**
     * Stops polling and waits for running handlers up to `stopTimeoutMs`; those still running are
     * aborted and their tasks handed back (free to claim at once; should that fail, once the lease
     * has run out).
     */
    close: async () => {
      stopping = true;
      if (timer) clearTimeout(timer);
      if (purgeTimer) clearInterval(purgeTimer);
      timer = undefined;
      await polling;
      if (running.size === 0) return;
      let wait: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all([...running.values()].map((entry) => entry.done)),
        new Promise((resolve) => (wait = setTimeout(resolve, stopTimeoutMs))),
      ]);
      clearTimeout(wait);
      const cutShort = [...running.values()];
      for (const entry of cutShort) entry.abort.abort(new WorkerStopped());
      await Promise.all(cutShort.map((entry) => entry.done));
    },
  };
};

export type OutboxWorker = ReturnType<typeof createOutboxWorker>;
