import type { Db, Executor } from '../../db/database.js';

/** All SQL of presence: who a user talks with, whether they show it, when they were last seen. */
export const createPresenceRepository = (_db: Db) => ({
  /**
   * The partners of the user (each once) who show their own online status: those who hide it see
   * nobody's (both ways), so they are not told.
   */
  visiblePartnersOf: async (executor: Executor, userId: number): Promise<number[]> => {
    const rows = await executor
      .selectFrom('messenger_users as mu')
      .leftJoin('user_settings as s', 's.user_id', 'mu.candidate_id')
      .select('mu.candidate_id as id')
      .where('mu.company_id', '=', userId)
      .where((eb) => eb.or([eb('s.show_online', 'is', null), eb('s.show_online', '!=', 0)]))
      .union(
        executor
          .selectFrom('messenger_users as mu')
          .leftJoin('user_settings as s', 's.user_id', 'mu.company_id')
          .select('mu.company_id as id')
          .where('mu.candidate_id', '=', userId)
          .where((eb) => eb.or([eb('s.show_online', 'is', null), eb('s.show_online', '!=', 0)])),
      )
      .execute();
    return rows.map((row) => row.id);
  },

  /** Whether the user shows that they are online (no settings row: the default, yes); undefined: no such user. */
  visibility: (executor: Executor, userId: number) =>
    executor
      .selectFrom('users as u')
      .leftJoin('user_settings as s', 's.user_id', 'u.id')
      .select(['u.erased_at', 's.show_online', 's.read_receipts'])
      .where('u.id', '=', userId)
      .executeTakeFirst(),

  saveLastSeen: (executor: Executor, userId: number, at: string) =>
    executor.updateTable('users').set({ last_seen_at: at }).where('id', '=', userId).execute(),
});

export type PresenceRepository = ReturnType<typeof createPresenceRepository>;
