import type { Db, Executor } from '../../db/database.js';

/** All SQL of sign-in links: the used `jti`s and the user a link names. */
export const createSsoRepository = (_db: Db) => ({
  findUserByExternalId: (executor: Executor, externalId: string) =>
    executor
      .selectFrom('users')
      .select(['id', 'name', 'role', 'erased_at', 'suspended_at'])
      .where('external_id', '=', externalId)
      .executeTakeFirst(),

  /**
   * Marks a link's `jti` as used; false when it already was. The primary key decides, so of two
   * instances racing with the same link exactly one wins, and a restart forgets nothing.
   */
  useToken: async (executor: Executor, jti: string, expiresAt: string): Promise<boolean> => {
    const result = await executor
      .insertInto('sso_used_tokens')
      .values({ jti, expires_at: expiresAt })
      .onConflict((conflict) => conflict.column('jti').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  },

  /** Forgets the `jti`s of links that expired before `before` (they can no longer be accepted). */
  purgeUsedTokens: (executor: Executor, before: string) =>
    executor.deleteFrom('sso_used_tokens').where('expires_at', '<', before).execute(),
});

export type SsoRepository = ReturnType<typeof createSsoRepository>;
