import { sql } from 'kysely';
import type { Db, Executor } from '../../db/database.js';

/** All SQL of presence: who a user talks with, whether they show it, when they were last seen. */
export const createPresenceRepository = (_db: Db) => ({
  /**
   * The partners of the user (each once) who show their own online status: those who hide it see
   * nobody's (both ways), so they are not told; nor is a partner on either side of a block.
   */
  visiblePartnersOf: async (executor: Executor, userId: number): Promise<number[]> => {
    /** Neither blocked the other (across a block, nobody is told of the other's presence). */
    const notBlocked = (partner: 'mu.candidate_id' | 'mu.company_id') =>
      sql<boolean>`not exists (select 1 from user_blocks b where (b.blocker_id = ${userId} and b.blocked_id = ${sql.ref(partner)}) or (b.blocker_id = ${sql.ref(partner)} and b.blocked_id = ${userId}))`;
    const rows = await executor
      .selectFrom('messenger_users as mu')
      .leftJoin('user_settings as s', 's.user_id', 'mu.candidate_id')
      .select('mu.candidate_id as id')
      .where('mu.company_id', '=', userId)
      .where((eb) => eb.or([eb('s.show_online', 'is', null), eb('s.show_online', '!=', 0)]))
      .where(notBlocked('mu.candidate_id'))
      .union(
        executor
          .selectFrom('messenger_users as mu')
          .leftJoin('user_settings as s', 's.user_id', 'mu.company_id')
          .select('mu.company_id as id')
          .where('mu.candidate_id', '=', userId)
          .where((eb) => eb.or([eb('s.show_online', 'is', null), eb('s.show_online', '!=', 0)]))
          .where(notBlocked('mu.company_id')),
      )
      .execute();
    return rows.map((row) => row.id);
  },

  /** Whether the user shows that they are online (no settings row: the default, yes); undefined: no such user. */
  visibility: (executor: Executor, userId: number) =>
    executor
      .selectFrom('users as u')
      .leftJoin('user_settings as s', 's.user_id', 'u.id')
      .select(['u.erased_at', 'u.last_seen_at', 's.show_online', 's.read_receipts'])
      .where('u.id', '=', userId)
      .executeTakeFirst(),

  saveLastSeen: (executor: Executor, userId: number, at: string) =>
    executor.updateTable('users').set({ last_seen_at: at }).where('id', '=', userId).execute(),
});

export type PresenceRepository = ReturnType<typeof createPresenceRepository>;
