import { DEFAULT_BACKOFF, type Backoff } from './outbox-backoff.js';
import type { OutboxTask } from './outbox.js';

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

/** A kind's handler with every option settled. */
export interface OutboxRegistration {
  handler: OutboxHandler<unknown>;
  parse: (payload: unknown) => unknown;
  backoff: Backoff;
  maxAttempts: number;
  minRetryMs: number;
  timeoutMs: number;
  concurrency: number;
}

export const DEFAULT_HANDLER_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_ATTEMPTS = 10;

/**
 * The registration of `kind`'s handler, its options filled from the worker's; throws when its
 * timeout is over half the lease (another worker could take a task still running here).
 */
export const registrationOf = <T>(
  kind: string,
  handler: OutboxHandler<T>,
  handlerOptions: OutboxHandlerOptions<T>,
  worker: { leaseMs: number; concurrency: number; backoff: Backoff | undefined },
): OutboxRegistration => {
  const timeoutMs = handlerOptions.timeoutMs ?? DEFAULT_HANDLER_TIMEOUT_MS;
  if (timeoutMs * 2 > worker.leaseMs)
    throw new Error(
      `outbox: "${kind}" handler timeout must be at most half the lease (${worker.leaseMs} ms)`,
    );
  return {
    handler: handler as OutboxHandler<unknown>,
    parse: handlerOptions.parse ?? ((payload) => payload),
    backoff: handlerOptions.backoff ?? worker.backoff ?? DEFAULT_BACKOFF,
    maxAttempts: handlerOptions.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    minRetryMs: handlerOptions.minRetryMs ?? 0,
    concurrency: Math.min(handlerOptions.concurrency ?? worker.concurrency, worker.concurrency),
    timeoutMs,
  };
};
