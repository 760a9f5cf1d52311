import { backoffDelay } from './outbox-backoff.js';
import type { OutboxRegistration } from './outbox-handlers.js';
import type { Outbox, OutboxTask } from './outbox.js';

export interface OutboxLogger {
  warn: (details: object, message: string) => void;
  error: (details: object, message: string) => void;
}

/** How an attempt ended: done, to be tried again, or given up. */
export type OutboxOutcome = 'done' | 'retry' | 'gave_up';

/** The reason a stop aborts the attempts still running. */
export class WorkerStopped extends Error {
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

const runHandler = async (
  registration: OutboxRegistration,
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

export interface AttemptParts {
  outbox: Outbox;
  workerId: string;
  registrations: ReadonlyMap<string, OutboxRegistration>;
  random: () => number;
  logger: OutboxLogger;
  onOutcome?: ((kind: string, outcome: OutboxOutcome) => void) | undefined;
}

/**
 * One attempt at a claimed task: its handler runs (parsed payload, timeout, stop), then the task is
 * completed, scheduled again with backoff, given up, or (cut short by a stop) handed back.
 */
export const createAttemptRunner =
  ({ outbox, workerId, registrations, random, logger, onOutcome }: AttemptParts) =>
  async (task: OutboxTask, abort: AbortController): Promise<void> => {
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
          onOutcome?.(task.kind, 'gave_up');
          await outbox.giveUp(task.id, workerId, message);
        } else {
          const delay = backoffDelay(attempts, registration.backoff, random);
          logger.warn(
            { task: task.id, kind: task.kind, attempts, err: error },
            'outbox: will retry',
          );
          onOutcome?.(task.kind, 'retry');
          await outbox.fail(task.id, workerId, message, new Date(outbox.now().getTime() + delay));
        }
      } catch (writeError) {
        // The lease runs out and the task is claimed again.
        logger.error({ task: task.id, err: writeError }, 'outbox: could not record a failure');
      }
      return;
    }
    onOutcome?.(task.kind, 'done');
    try {
      if (!(await outbox.complete(task.id, workerId)))
        logger.warn({ task: task.id, kind: task.kind }, 'outbox: lease lost before completion');
    } catch (error) {
      // Done but not marked: it runs again after the lease (at least once; ADR 013).
      logger.error({ task: task.id, err: error }, 'outbox: could not mark a task done');
    }
  };
