export interface PresenceLogger {
  warn(obj: unknown, msg?: string): void;
}

/**
 * Runs `work` after what is queued for the user. A failure is logged; with `rethrow` the caller
 * gets it too (a webhook answers 5xx, and the hosted service sends it again).
 */
export type Serially = (
  userId: number,
  work: () => Promise<void>,
  options?: { rethrow?: boolean },
) => Promise<void>;

/** One change at a time per user (a hold and a release must not cross in the store). */
export const createPresenceQueues = (logger: PresenceLogger | undefined) => {
  const queues = new Map<number, Promise<void>>();

  const serially: Serially = (userId, work, { rethrow = false } = {}) => {
    const previous = queues.get(userId) ?? Promise.resolve();
    const run = previous.then(work);
    const next = run.catch((error: unknown) => {
      logger?.warn({ err: error, userId }, 'presence: a change could not be recorded');
    });
    queues.set(userId, next);
    void next.finally(() => {
      if (queues.get(userId) === next) queues.delete(userId);
    });
    return rethrow ? run : next;
  };

  return {
    serially,
    /** Resolves once what is under way for the user is recorded. */
    settled: (userId: number): Promise<void> => queues.get(userId) ?? Promise.resolve(),
    /** Resolves once what is under way now, for every user, is recorded. */
    allSettled: (): Promise<void[]> => Promise.all([...queues.values()]),
  };
};
