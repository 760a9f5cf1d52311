import type { Kysely, Transaction } from 'kysely';
import type { DialectName } from './database.js';
import type { Database } from './schema.js';

/**
 * Transactions of frequent small writes (sends, marks seen). On SQLite, most of such a
 * transaction's cost is its commit: the pages it changed written to the WAL (about 0.1–0.25 ms on
 * this kind of machine, more than all of the send's statements together; docs/performance.md). So
 * the transactions that arrive in the same turn of the event loop share one commit ("group
 * commit"), each inside its own savepoint: a unit of work that fails is undone alone and its
 * caller gets its error, the others commit. A failed commit fails every unit of the batch (none of
 * them was stored; their callers answer an error and the clients retry).
 *
 * On PostgreSQL each unit is its own transaction: connections work in parallel there, and the
 * server already shares WAL flushes between concurrent commits.
 */
export interface WriteBatcher {
  /** Runs `work` in a transaction (possibly shared, see above); its result once committed. */
  run<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T>;
}

/** Units per shared commit at most: a long queue is committed in several batches. */
const MAX_BATCH = 64;

interface Unit {
  work: (trx: Transaction<Database>) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export const createWriteBatcher = (db: Kysely<Database>, dialect: DialectName): WriteBatcher => {
  if (dialect !== 'sqlite') return { run: (work) => db.transaction().execute(work) };

  let queue: Unit[] = [];
  let scheduled = false;
  let previous: Promise<void> = Promise.resolve();

  const commitTogether = async (units: Unit[]): Promise<Outcome[]> => {
    const trx = await db.startTransaction().execute();
    const outcomes: Outcome[] = [];
    try {
      for (const [index, unit] of units.entries()) {
        const name = `unit_${index}`;
        const savepoint = await trx.savepoint(name).execute();
        try {
          outcomes.push({ ok: true, value: await unit.work(savepoint) });
        } catch (error) {
          await savepoint.rollbackToSavepoint(name).execute();
          outcomes.push({ ok: false, error });
        }
        await savepoint.releaseSavepoint(name).execute();
      }
      await trx.commit().execute();
      return outcomes;
    } catch (error) {
      await trx
        .rollback()
        .execute()
        .catch(() => undefined);
      throw error;
    }
  };

  const flush = async (): Promise<void> => {
    scheduled = false;
    const units = queue.slice(0, MAX_BATCH);
    queue = queue.slice(units.length);
    if (queue.length > 0) schedule();
    if (units.length === 1) {
      const [unit] = units as [Unit];
      await db.transaction().execute(unit.work).then(unit.resolve, unit.reject);
      return;
    }
    try {
      const outcomes = await commitTogether(units);
      units.forEach((unit, index) => {
        const outcome = outcomes[index]!;
        if (outcome.ok) unit.resolve(outcome.value);
        else unit.reject(outcome.error);
      });
    } catch (error) {
      for (const unit of units) unit.reject(error);
    }
  };

  /** After the requests read in this turn have queued their work; one batch at a time. */
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      previous = previous.then(flush);
    });
  };

  return {
    run: <T>(work: (trx: Transaction<Database>) => Promise<T>) =>
      new Promise<T>((resolve, reject) => {
        queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
        schedule();
      }),
  };
};
