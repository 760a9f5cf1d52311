import type { Executor } from '../db/database.js';
import type { OutboxRow } from '../db/schema.js';
import { createOutboxRepository, type NewOutboxTask } from './outbox.repository.js';
import type { Db } from '../db/database.js';

export type { NewOutboxTask } from './outbox.repository.js';
export type OutboxTask = OutboxRow;

export interface OutboxOptions {
  db: Db;
  /** The clock every due moment and lease is measured with (tests move it). */
  now?: () => Date;
}

/**
 * The durable outbox (ADR 013): `enqueue` inside the transaction that decides the work (a send's),
 * then a worker `claim`s due tasks under a lease and `complete`s or `fail`s each one. Delivery is
 * at least once: a task is done only when its handler succeeded and the worker still held it.
 */
export const createOutbox = (options: OutboxOptions) => {
  const { db } = options;
  const clock = options.now ?? (() => new Date());
  const nowIso = () => clock().toISOString();
  const repository = createOutboxRepository(db);

  return {
    now: clock,

    /**
     * Writes a task with `executor` (the database, or the caller's transaction: then it exists
     * only if that transaction commits). False when a task with the same dedupe key exists; with
     * `rearm`, a finished one is made due again (for keys that name a moment, not a message).
     */
    enqueue: (
      executor: Executor,
      task: NewOutboxTask,
      options: { rearm?: boolean } = {},
    ): Promise<boolean> => repository.insert(executor, task, nowIso(), options.rearm ?? false),

    /** The waiting task with this dedupe key becomes due now (if it was due later). */
    runNow: (dedupeKey: string, executor: Executor = db.kysely): Promise<boolean> =>
      repository.runNow(executor, dedupeKey, nowIso()),

    /** Leases up to `limit` due tasks of `kinds` to `workerId` for `leaseMs`, oldest due first. */
    claim: (
      workerId: string,
      kinds: readonly string[],
      limit: number,
      leaseMs: number,
    ): Promise<OutboxTask[]> => {
      const now = clock();
      const lockedUntil = new Date(now.getTime() + leaseMs).toISOString();
      return repository.claim(
        db.kysely,
        { workerId, kinds, limit, lockedUntil },
        now.toISOString(),
      );
    },

    /** When the next task of `kinds` that nobody holds is due (undefined: none waiting). */
    nextRunAt: async (kinds: readonly string[]): Promise<Date | undefined> => {
      const next = await repository.nextRunAt(db.kysely, kinds, nowIso());
      return next === undefined ? undefined : new Date(next);
    },

    /** Handed back unfinished (a stop): another worker may claim it at once. */
    release: (id: number, workerId: string): Promise<boolean> =>
      repository.release(db.kysely, id, workerId),

    /** Tasks not done, and how long the earliest due one has waited (seconds; 0: none due). */
    backlog: async (): Promise<{ pending: number; oldestDueSeconds: number }> => {
      const now = clock();
      const { pending, oldestDueAt } = await repository.backlog(db.kysely, now.toISOString());
      const waited = oldestDueAt ? (now.getTime() - Date.parse(oldestDueAt)) / 1000 : 0;
      return { pending, oldestDueSeconds: Math.max(0, waited) };
    },

    /** Done; false (nothing changed) when `workerId` no longer holds the task. */
    complete: (id: number, workerId: string): Promise<boolean> =>
      repository.complete(db.kysely, id, workerId, nowIso()),

    /** One more failed attempt; the task is due again at `retryAt`. False when no longer held. */
    fail: (id: number, workerId: string, error: string, retryAt: Date): Promise<boolean> =>
      repository.fail(
        db.kysely,
        { id, workerId, error, retryAt: retryAt.toISOString(), giveUp: false },
        nowIso(),
      ),

    /** The last attempt failed: marked done with its error, kept for inspection. */
    giveUp: (id: number, workerId: string, error: string): Promise<boolean> => {
      const now = nowIso();
      return repository.fail(db.kysely, { id, workerId, error, retryAt: now, giveUp: true }, now);
    },

    /**
     * Deletes finished tasks (done or given up) older than `retentionMs`, in batches of `batch`,
     * until none are left or `budgetMs` has passed; how many went. Their dedupe keys are free
     * again, which is safe once nothing would enqueue them again (keys name a message or a moment).
     */
    purgeDone: async (retentionMs: number, batch = 1000, budgetMs = 5000): Promise<number> => {
      const started = Date.now();
      const before = new Date(clock().getTime() - retentionMs).toISOString();
      let purged = 0;
      for (;;) {
        const deleted = await repository.purgeDone(db.kysely, before, batch);
        purged += deleted;
        if (deleted < batch || Date.now() - started >= budgetMs) return purged;
      }
    },

    find: (id: number) => repository.find(db.kysely, id),
    /** With the caller's transaction when inside one (SQLite has one connection). */
    findByDedupeKey: (dedupeKey: string, executor: Executor = db.kysely) =>
      repository.findByDedupeKey(executor, dedupeKey),
  };
};

export type Outbox = ReturnType<typeof createOutbox>;
