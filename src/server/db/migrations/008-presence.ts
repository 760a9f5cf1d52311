import type { Kysely } from 'kysely';

/**
 * Presence: when each user was last online, kept across restarts (who is online
 * now lives in memory, or in Redis across instances: src/server/modules/presence).
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.alterTable('users').addColumn('last_seen_at', 'text').execute();
};
