import type { DialectName, Executor } from '../db/database.js';
import type { OutboxRow } from '../db/schema.js';

export interface NewOutboxTask {
  kind: string;
  dedupeKey: string;
  /** Stored as JSON. */
  payload: unknown;
  /** ISO UTC: not before this moment. */
  runAt: string;
}

/** Longest `last_error` kept: a stack trace is useful, a megabyte of HTML from a webhook is not. */
const MAX_ERROR_CHARS = 2000;

/**
 * All SQL of the outbox (ADR 013). Timestamps are ISO UTC text compared as text, `now` comes from
 * the caller (one clock: the instance's). Writes that finish a claim name the worker: a worker
 * whose lease was taken over by another changes nothing.
 */
export const createOutboxRepository = (dialect: DialectName) => ({
  /**
   * Adds a task; false when one with the same dedupe key exists (done or not). With `rearm`, a
   * finished task of that key is made due again instead (a pending one is left as it is).
   */
  insert: async (
    executor: Executor,
    task: NewOutboxTask,
    now: string,
    rearm = false,
  ): Promise<boolean> => {
    const payload = JSON.stringify(task.payload);
    const result = await executor
      .insertInto('outbox')
      .values({
        kind: task.kind,
        dedupe_key: task.dedupeKey,
        payload,
        run_at: task.runAt,
        created_at: now,
      })
      .onConflict((conflict) =>
        rearm
          ? conflict
              .column('dedupe_key')
              .doUpdateSet({
                payload,
                run_at: task.runAt,
                attempts: 0,
                locked_by: null,
                locked_until: null,
                last_error: null,
                created_at: now,
                done_at: null,
              })
              .where('outbox.done_at', 'is not', null)
          : conflict.column('dedupe_key').doNothing(),
      )
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  },

  /**
   * Leases up to `limit` due tasks of these kinds to `workerId` until `lockedUntil`, in one
   * statement. PostgreSQL: `FOR UPDATE SKIP LOCKED` in the subquery, so concurrent claimers skip
   * each other's rows instead of waiting or taking them twice (a row committed meanwhile by
   * another claimer is re-checked against the lease condition and left out). SQLite: the statement
   * runs alone (one writer at a time), which is enough within one process.
   */
  claim: async (
    executor: Executor,
    claim: { workerId: string; kinds: readonly string[]; limit: number; lockedUntil: string },
    now: string,
  ): Promise<OutboxRow[]> => {
    if (claim.kinds.length === 0 || claim.limit <= 0) return [];
    const rows = await executor
      .updateTable('outbox')
      .set({ locked_by: claim.workerId, locked_until: claim.lockedUntil })
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('outbox')
          .select('id')
          .where('done_at', 'is', null)
          .where('run_at', '<=', now)
          .where((inner) =>
            inner.or([inner('locked_until', 'is', null), inner('locked_until', '<', now)]),
          )
          .where('kind', 'in', claim.kinds)
          .orderBy('run_at')
          .orderBy('id')
          .limit(claim.limit)
          .$if(dialect === 'postgres', (query) => query.forUpdate().skipLocked()),
      )
      .returningAll()
      .execute();
    // RETURNING has no order of its own.
    return rows.sort((a, b) =>
      a.run_at === b.run_at ? a.id - b.id : a.run_at < b.run_at ? -1 : 1,
    );
  },

  /**
   * The earliest `run_at` among tasks of these kinds that are not done and not leased now (a
   * claim would take them once due); undefined when there are none. Served by the partial index
   * on (run_at, id) of tasks not done.
   */
  nextRunAt: async (
    executor: Executor,
    kinds: readonly string[],
    now: string,
  ): Promise<string | undefined> => {
    if (kinds.length === 0) return undefined;
    const row = await executor
      .selectFrom('outbox')
      .select('run_at')
      .where('done_at', 'is', null)
      .where((inner) =>
        inner.or([inner('locked_until', 'is', null), inner('locked_until', '<', now)]),
      )
      .where('kind', 'in', kinds)
      .orderBy('run_at')
      .limit(1)
      .executeTakeFirst();
    return row?.run_at;
  },

  /** Marks a claimed task done; false when this worker no longer holds it. */
  complete: async (executor: Executor, id: number, workerId: string, now: string) => {
    const result = await executor
      .updateTable('outbox')
      .set({ done_at: now, locked_by: null, locked_until: null, last_error: null })
      .where('id', '=', id)
      .where('locked_by', '=', workerId)
      .where('done_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  /**
   * Counts a failed attempt and releases the task for `retryAt`; with `giveUp`, marks it done
   * instead (the row and its last error are kept). False when this worker no longer holds it.
   */
  fail: async (
    executor: Executor,
    failure: { id: number; workerId: string; error: string; retryAt: string; giveUp: boolean },
    now: string,
  ) => {
    const result = await executor
      .updateTable('outbox')
      .set((eb) => ({
        attempts: eb('attempts', '+', 1),
        locked_by: null,
        locked_until: null,
        last_error: failure.error.slice(0, MAX_ERROR_CHARS),
        ...(failure.giveUp ? { done_at: now } : { run_at: failure.retryAt }),
      }))
      .where('id', '=', failure.id)
      .where('locked_by', '=', failure.workerId)
      .where('done_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  /** Deletes up to `limit` tasks finished before `before` (done or given up); how many went. */
  purgeDone: async (executor: Executor, before: string, limit: number): Promise<number> => {
    const result = await executor
      .deleteFrom('outbox')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('outbox')
          .select('id')
          .where('done_at', 'is not', null)
          .where('done_at', '<', before)
          .orderBy('done_at')
          .limit(limit),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },

  find: (executor: Executor, id: number) =>
    executor.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirst(),

  findByDedupeKey: (executor: Executor, dedupeKey: string) =>
    executor
      .selectFrom('outbox')
      .selectAll()
      .where('dedupe_key', '=', dedupeKey)
      .executeTakeFirst(),
});

export type OutboxRepository = ReturnType<typeof createOutboxRepository>;
