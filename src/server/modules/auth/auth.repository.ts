import type { Insertable } from 'kysely';
import { prepareQuery, type Db, type Executor } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { deleteUsersRow } from '../../db/user-rows.js';

export type NewApiToken = Insertable<Database['api_tokens']>;

/** Who a session or token signs in as. */
const VIEWER_COLUMNS = ['users.id', 'users.name', 'users.role', 'users.suspended_at'] as const;

/** Sessions, users by e-mail and tokens. Each function takes the executor first (database or transaction). */
export const createAuthRepository = ({ kysely: db }: Db) => {
  // Every authenticated request runs one of these two: prepared once (see prepareQuery).
  const sessionUser = prepareQuery(2, (sessionHash: string, now: string) =>
    db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select([...VIEWER_COLUMNS, 'sessions.csrf_token', 'sessions.expires_at'])
      .where('sessions.id', '=', sessionHash)
      .where('sessions.expires_at', '>', now),
  );
  const tokenUser = prepareQuery(2, (tokenHash: string, now: string) =>
    db
      .selectFrom('api_tokens')
      .innerJoin('users', 'users.id', 'api_tokens.user_id')
      .select([
        ...VIEWER_COLUMNS,
        'api_tokens.id as token_id',
        'api_tokens.last_used_at',
        'api_tokens.expires_at',
      ])
      .where('api_tokens.token_hash', '=', tokenHash)
      .where('api_tokens.expires_at', '>', now),
  );
  return {
    findUserByEmail: (executor: Executor, email: string) =>
      executor
        .selectFrom('users')
        .select(['id', 'name', 'role', 'suspended_at', 'password_hash'])
        .where('email', '=', email)
        .where('erased_at', 'is', null)
        .executeTakeFirst(),

    findSessionUser: async (executor: Executor, sessionHash: string, now: string) =>
      (await sessionUser(executor, sessionHash, now))[0],

    insertSession: (executor: Executor, session: Database['sessions']) =>
      executor.insertInto('sessions').values(session).execute(),

    /** Deletes the session; whose it was, when there was one. */
    deleteSession: (executor: Executor, sessionHash: string) =>
      executor
        .deleteFrom('sessions')
        .where('id', '=', sessionHash)
        .returning('user_id')
        .executeTakeFirst(),

    deleteExpiredTokens: (executor: Executor, userId: number, now: string) =>
      executor
        .deleteFrom('api_tokens')
        .where('user_id', '=', userId)
        .where('expires_at', '<=', now)
        .execute(),

    countTokens: async (executor: Executor, userId: number): Promise<number> => {
      const { count } = await executor
        .selectFrom('api_tokens')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(count);
    },

    insertToken: (executor: Executor, token: NewApiToken) =>
      executor.insertInto('api_tokens').values(token).execute(),

    findTokenUser: async (executor: Executor, tokenHash: string, now: string) =>
      (await tokenUser(executor, tokenHash, now))[0],

    touchToken: (executor: Executor, tokenId: number, now: string) =>
      executor
        .updateTable('api_tokens')
        .set({ last_used_at: now })
        .where('id', '=', tokenId)
        .execute(),

    listTokens: (executor: Executor, userId: number, now: string) =>
      executor
        .selectFrom('api_tokens')
        .select(['id', 'name', 'created_at', 'last_used_at', 'expires_at'])
        .where('user_id', '=', userId)
        .where('expires_at', '>', now)
        .orderBy('id', 'desc')
        .execute(),

    /** Number of tokens deleted (0: not the user's, or unknown). */
    deleteToken: (executor: Executor, userId: number, tokenId: number) =>
      deleteUsersRow(executor, 'api_tokens', userId, tokenId),

    deleteAllTokens: (executor: Executor, userId: number) =>
      executor.deleteFrom('api_tokens').where('user_id', '=', userId).execute(),
  };
};

export type AuthRepository = ReturnType<typeof createAuthRepository>;
