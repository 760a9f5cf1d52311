import { sql } from 'kysely';
import type { Db, Executor } from '../../db/database.js';

/** The one query readiness needs: does the database answer at all. */
export const createHealthRepository = (_db: Db) => ({
  ping: async (executor: Executor): Promise<void> => {
    await sql`select 1`.execute(executor);
  },
});

export type HealthRepository = ReturnType<typeof createHealthRepository>;
