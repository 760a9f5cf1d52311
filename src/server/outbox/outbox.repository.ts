import { sql, type Kysely, type RawBuilder } from 'kysely';
import { prepareQuery, type Db, type DialectName, type Executor } from '../db/database.js';
import type { Database, OutboxRow } from '../db/schema.js';

export interface NewOutboxTask {
  kind: string;
  dedupeKey: string;
  /** Stored as JSON. */
  payload: unknown;
  /** ISO UTC: not before this moment. */
  runAt: string;
}

/** A task's five values as its row holds them (the payload as JSON text). */
type TaskValues = [kind: string, dedupeKey: string, payload: string, runAt: string, now: string];
const taskValues = (task: NewOutboxTask, now: string): TaskValues => [
  task.kind,
  task.dedupeKey,
  JSON.stringify(task.payload),
  task.runAt,
  now,
];

const tasksInsert = (rows: readonly TaskValues[], onlyIfRowIn?: string): RawBuilder<unknown> =>
  sql`insert into outbox (kind, dedupe_key, payload, run_at, created_at)
    select * from (values ${sql.join(rows.map((row) => sql`(${sql.join(row)})`))}) as t
    where ${onlyIfRowIn ? sql`exists (select 1 from ${sql.table(onlyIfRowIn)})` : sql`1 = 1`}
    on conflict (dedupe_key) do nothing`;

/**
 * The insert of a message's tasks, one statement on either database: run on its own in the caller's
 * transaction (`writeTasks`), or (PostgreSQL) as a data-modifying CTE of the caller's own statement,
 * written only when the CTE named `onlyIfRowIn` has a row. A dedupe key already taken is skipped, as
 * `insert` does. This is the only way a send writes its outbox tasks.
 */
export const insertTasks = (
  tasks: readonly NewOutboxTask[],
  now: string,
  { onlyIfRowIn }: { onlyIfRowIn?: string } = {},
): RawBuilder<unknown> =>
  tasksInsert(
    tasks.map((task) => taskValues(task, now)),
    onlyIfRowIn,
  );

/**
 * `insertTasks` run in the caller's transaction, compiled once per number of tasks (see
 * prepareQuery): a send writes one or two tasks, and rebuilding the statement each time cost more
 * than running it.
 */
export const createTaskWriter = (db: Kysely<Database>) => {
  const prepared = perKindCount((count) =>
    prepareQuery(5 * count, (...values: string[]) => {
      const rows = Array.from(
        { length: count },
        (_, index) => values.slice(5 * index, 5 * index + 5) as TaskValues,
      );
      return { compile: () => tasksInsert(rows).compile(db) };
    }),
  );
  return async (executor: Executor, tasks: readonly NewOutboxTask[], now: string) => {
    if (tasks.length === 0) return;
    await prepared(tasks.length)(executor, ...tasks.flatMap((task) => taskValues(task, now)));
  };
};

/** Longest `last_error` kept: a stack trace is useful, a megabyte of HTML from a webhook is not. */
const MAX_ERROR_CHARS = 2000;

/** A prepared query per number of kinds (a list is not a value: its length is part of the SQL). */
const perKindCount = <T>(make: (count: number) => T): ((count: number) => T) => {
  const made = new Map<number, T>();
  return (count) => {
    let value = made.get(count);
    if (value === undefined) {
      value = make(count);
      made.set(count, value);
    }
    return value;
  };
};

/** The kinds as arguments after `fixed` leading ones (`prepareQuery` hands them in as stand-ins). */
const kindArgs = (args: unknown[], fixed: number) => args.slice(fixed) as string[];

/** A task as `insert` writes it (what happens on a dedupe key taken is up to the caller). */
const insertTask = (
  db: Kysely<Database>,
  kind: string,
  dedupeKey: string,
  payload: string,
  runAt: string,
  now: string,
) =>
  db
    .insertInto('outbox')
    .values({ kind, dedupe_key: dedupeKey, payload, run_at: runAt, created_at: now });

/**
 * An update of the task `workerId` holds and has not finished: a worker whose lease was taken over
 * by another changes nothing.
 */
const updateHeldTask = (db: Executor, id: number, workerId: string) =>
  db
    .updateTable('outbox')
    .where('id', '=', id)
    .where('locked_by', '=', workerId)
    .where('done_at', 'is', null);

/** A failed attempt counted and released: due again at `at` (`run_at`), or given up then (`done_at`). */
const failedAttempt = (db: Kysely<Database>, finish: 'run_at' | 'done_at') =>
  prepareQuery(4, (id: number, workerId: string, error: string, at: string) =>
    updateHeldTask(db, id, workerId)
      .set((eb) => ({
        attempts: eb('attempts', '+', 1),
        locked_by: null,
        locked_until: null,
        last_error: error,
        [finish]: at,
      }))
      .returning('id'),
  );

/**
 * The queries of the send path and the worker's loop, built and compiled once (see prepareQuery):
 * the same SQL as building them per call.
 */
const preparedQueries = (db: Kysely<Database>, dialect: DialectName) => ({
  insert: prepareQuery(
    5,
    (kind: string, dedupeKey: string, payload: string, runAt: string, now: string) =>
      insertTask(db, kind, dedupeKey, payload, runAt, now)
        .onConflict((conflict) => conflict.column('dedupe_key').doNothing())
        .returning('id'),
  ),
  insertRearm: prepareQuery(
    5,
    (kind: string, dedupeKey: string, payload: string, runAt: string, now: string) =>
      insertTask(db, kind, dedupeKey, payload, runAt, now)
        .onConflict((conflict) =>
          conflict
            .column('dedupe_key')
            .doUpdateSet({
              payload,
              run_at: runAt,
              attempts: 0,
              locked_by: null,
              locked_until: null,
              last_error: null,
              created_at: now,
              done_at: null,
            })
            .where('outbox.done_at', 'is not', null),
        )
        .returning('id'),
  ),
  // Arguments: workerId, lockedUntil, now, limit, then the kinds.
  claim: perKindCount((count) =>
    prepareQuery(4 + count, (...args: unknown[]) => {
      const [workerId, lockedUntil, now, limit] = args as [string, string, string, number];
      return db
        .updateTable('outbox')
        .set({ locked_by: workerId, locked_until: lockedUntil })
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('outbox')
            .select('id')
            .where('done_at', 'is', null)
            .where('run_at', '<=', now)
            .where((inner) =>
              inner.or([inner('locked_until', 'is', null), inner('locked_until', '<', now)]),
            )
            .where('kind', 'in', kindArgs(args, 4))
            .orderBy('run_at')
            .orderBy('id')
            .limit(limit)
            .$if(dialect === 'postgres', (query) => query.forUpdate().skipLocked()),
        )
        .returningAll();
    }),
  ),
  // Arguments: now, then the kinds.
  nextRunAt: perKindCount((count) =>
    prepareQuery(1 + count, (...args: unknown[]) => {
      const now = args[0] as string;
      return db
        .selectFrom('outbox')
        .select('run_at')
        .where('done_at', 'is', null)
        .where((inner) =>
          inner.or([inner('locked_until', 'is', null), inner('locked_until', '<', now)]),
        )
        .where('kind', 'in', kindArgs(args, 1))
        .orderBy('run_at')
        .limit(1);
    }),
  ),
  complete: prepareQuery(3, (id: number, workerId: string, now: string) =>
    updateHeldTask(db, id, workerId)
      .set({ done_at: now, locked_by: null, locked_until: null, last_error: null })
      .returning('id'),
  ),
  retry: failedAttempt(db, 'run_at'),
  giveUp: failedAttempt(db, 'done_at'),
  findByDedupeKey: prepareQuery(1, (dedupeKey: string) =>
    db.selectFrom('outbox').selectAll().where('dedupe_key', '=', dedupeKey),
  ),
});

/**
 * All SQL of the outbox (ADR 013). Timestamps are ISO UTC text compared as text, `now` comes from
 * the caller (one clock: the instance's). Writes that finish a claim name the worker: a worker
 * whose lease was taken over by another changes nothing. Built once per database (its prepared
 * queries are compiled for that database's dialect).
 */
export const createOutboxRepository = ({ kysely: db, dialect }: Db) => {
  const q = preparedQueries(db, dialect);
  return {
    /** A waiting task (not done) made due at `now` if it was due later; false: nothing changed. */
    runNow: async (executor: Executor, dedupeKey: string, now: string): Promise<boolean> => {
      const result = await executor
        .updateTable('outbox')
        .set({ run_at: now })
        .where('dedupe_key', '=', dedupeKey)
        .where('done_at', 'is', null)
        .where('run_at', '>', now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

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
      const rows = await (rearm ? q.insertRearm : q.insert)(
        executor,
        task.kind,
        task.dedupeKey,
        JSON.stringify(task.payload),
        task.runAt,
        now,
      );
      return rows.length > 0;
    },

    /** A task `workerId` holds and has not finished, handed back: free to claim at once. */
    release: async (executor: Executor, id: number, workerId: string): Promise<boolean> => {
      const result = await updateHeldTask(executor, id, workerId)
        .set({ locked_by: null, locked_until: null })
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /**
     * Tasks not done yet (due or waiting for their moment), and the `run_at` of the earliest one that
     * is due (undefined: none). Served by the partial index on (run_at, id) of tasks not done.
     */
    backlog: async (
      executor: Executor,
      now: string,
    ): Promise<{ pending: number; oldestDueAt: string | undefined }> => {
      const row = await executor
        .selectFrom('outbox')
        .select((eb) => [
          eb.fn.countAll<number | string>().as('pending'),
          eb.fn
            .min(eb.case().when('run_at', '<=', now).then(eb.ref('run_at')).end())
            .as('oldest_due_at'),
        ])
        .where('done_at', 'is', null)
        .executeTakeFirstOrThrow();
      return { pending: Number(row.pending), oldestDueAt: row.oldest_due_at ?? undefined };
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
      const rows = await q.claim(claim.kinds.length)(
        executor,
        claim.workerId,
        claim.lockedUntil,
        now,
        claim.limit,
        ...claim.kinds,
      );
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
      const rows = await q.nextRunAt(kinds.length)(executor, now, ...kinds);
      return rows[0]?.run_at;
    },

    /** Marks a claimed task done; false when this worker no longer holds it. */
    complete: async (executor: Executor, id: number, workerId: string, now: string) =>
      (await q.complete(executor, id, workerId, now)).length > 0,

    /**
     * Counts a failed attempt and releases the task for `retryAt`; with `giveUp`, marks it done
     * instead (the row and its last error are kept). False when this worker no longer holds it.
     */
    fail: async (
      executor: Executor,
      failure: { id: number; workerId: string; error: string; retryAt: string; giveUp: boolean },
      now: string,
    ) => {
      const error = failure.error.slice(0, MAX_ERROR_CHARS);
      const rows = failure.giveUp
        ? await q.giveUp(executor, failure.id, failure.workerId, error, now)
        : await q.retry(executor, failure.id, failure.workerId, error, failure.retryAt);
      return rows.length > 0;
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

    findByDedupeKey: async (
      executor: Executor,
      dedupeKey: string,
    ): Promise<OutboxRow | undefined> => (await q.findByDedupeKey(executor, dedupeKey))[0],
  };
};

export type OutboxRepository = ReturnType<typeof createOutboxRepository>;
