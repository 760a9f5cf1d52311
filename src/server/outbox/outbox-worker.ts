import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { createAttemptRunner, type OutboxLogger, type OutboxOutcome } from './outbox-attempt.js';
import type { Backoff } from './outbox-backoff.js';
import { createClaimAndRun, stopRunning, type RunningTask } from './outbox-claims.js';
import {
  registrationOf,
  type OutboxHandler,
  type OutboxHandlerOptions,
  type OutboxRegistration,
} from './outbox-handlers.js';
import type { Outbox } from './outbox.js';

export type { OutboxLogger, OutboxOutcome } from './outbox-attempt.js';
export { backoffDelay, DEFAULT_BACKOFF, type Backoff } from './outbox-backoff.js';
export {
  DEFAULT_HANDLER_TIMEOUT_MS,
  DEFAULT_MAX_ATTEMPTS,
  type OutboxHandler,
  type OutboxHandlerContext,
  type OutboxHandlerOptions,
} from './outbox-handlers.js';

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

export const DEFAULT_LEASE_MS = 5 * 60_000;
/** The shortest wait between polls when a task comes due sooner than pollMs. */
export const MIN_POLL_GAP_MS = 100;

const silent: OutboxLogger = { warn: () => undefined, error: () => undefined };

/** Deletes finished tasks older than `retentionMs` every `everyMs` (the timer keeps nothing alive). */
const startPurging = (
  outbox: Outbox,
  retentionMs: number,
  everyMs: number,
  logger: OutboxLogger,
): NodeJS.Timeout => {
  const purge = () =>
    outbox
      .purgeDone(retentionMs)
      .catch((error: unknown) => logger.warn({ err: error }, 'outbox: purge failed'));
  const purgeTimer = setInterval(() => void purge(), everyMs);
  purgeTimer.unref();
  return purgeTimer;
};

/**
 * Without a backlog: until the next task is due if that is sooner than pollMs (at least
 * MIN_POLL_GAP_MS), so tasks coming due under load are taken a few at a time as they come due
 * rather than all at once every pollMs (a burst that held up the instance's requests).
 */
const nextPollIn = async (outbox: Outbox, kinds: string[], pollMs: number): Promise<number> => {
  try {
    const next = await outbox.nextRunAt(kinds);
    if (!next) return pollMs;
    const wait = next.getTime() - outbox.now().getTime();
    return Math.min(pollMs, Math.max(MIN_POLL_GAP_MS, wait));
  } catch {
    return pollMs;
  }
};

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
  const registrations = new Map<string, OutboxRegistration>();
  const running = new Map<number, RunningTask>();
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

  /** One attempt at a claimed task, and how it is recorded (outbox-attempt.ts). */
  const run = createAttemptRunner({
    outbox,
    workerId,
    registrations,
    random,
    logger,
    onOutcome: options.onOutcome,
  });

  const claimAndRun = createClaimAndRun({
    outbox,
    workerId,
    leaseMs,
    concurrency,
    registrations,
    running,
    run,
    // Refill once half the slots are free: one claim for several tasks, not one per task.
    onSlotFreed: () => {
      if (backlog && concurrency - running.size >= refillAt) refill();
    },
  });

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
    const wait = soon ? 0 : await nextPollIn(outbox, [...registrations.keys()], pollMs);
    if (!stopping) timer = setTimeout(tick, wait);
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
      registrations.set(
        kind,
        registrationOf(kind, handler, handlerOptions, {
          leaseMs,
          concurrency,
          backoff: options.backoff,
        }),
      );
    },

    /** Polls every `pollMs` (and purges old finished tasks) until `close`. */
    start: () => {
      if (started || stopping) return;
      started = true;
      tick();
      const { retentionMs } = options;
      if (retentionMs !== undefined)
        purgeTimer = startPurging(outbox, retentionMs, options.purgeEveryMs ?? 600_000, logger);
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
      await stopRunning(running, stopTimeoutMs);
    },
  };
};

export type OutboxWorker = ReturnType<typeof createOutboxWorker>;
