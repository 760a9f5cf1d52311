import type { Kysely } from 'kysely';
import { createIndexes, createTableWithId } from './schema-helpers.js';

/**
 * The durable outbox (ADR 013): work to do outside a request (e-mails, webhooks), written in the
 * transaction that decided it and claimed by a worker in some instance under a lease.
 * `dedupe_key` is unique: enqueueing the same task twice keeps the first.
 */
export const up = async (db: Kysely<unknown>, dialect: 'sqlite' | 'postgres'): Promise<void> => {
  await createTableWithId(db, dialect, 'outbox')
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('dedupe_key', 'text', (col) => col.notNull().unique())
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('run_at', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('locked_until', 'text')
    .addColumn('locked_by', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('done_at', 'text')
    .execute();
  // Claiming reads the due, unfinished tasks in run_at order: a partial index holds only those.
  await createIndexes(db, 'outbox', {
    outbox_due_idx: { columns: ['run_at', 'id'], whereNull: 'done_at' },
  });
};
