import type { Executor } from '../../db/database.js';

/** All SQL of presence: who a user talks with, whether they show it, when they were last seen. */
export const createPresenceRepository = () => ({
  /** The other party of every conversation of the user (each once). */
  partnersOf: async (executor: Executor, userId: number): Promise<number[]> => {
    const rows = await executor
      .selectFrom('messenger_users')
      .select('candidate_id as id')
      .where('company_id', '=', userId)
      .union(
        executor
          .selectFrom('messenger_users')
          .select('company_id as id')
          .where('candidate_id', '=', userId),
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
