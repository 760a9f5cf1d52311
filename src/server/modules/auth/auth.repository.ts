import type { Kysely } from 'kysely';
import { prepareQuery } from '../../db/database.js';
import type { Database, UserRow } from '../../db/schema.js';

export type SignedInUser = Pick<UserRow, 'id' | 'name' | 'role'>;

export const createAuthRepository = (db: Kysely<Database>) => {
  // Every authenticated request runs one of these two: prepared once (see prepareQuery).
  const sessionUser = prepareQuery(2, (sessionHash: string, now: string) =>
    db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(['users.id', 'users.name', 'users.role', 'sessions.csrf_token'])
      .where('sessions.id', '=', sessionHash)
      .where('sessions.expires_at', '>', now),
  );
  const tokenUser = prepareQuery(1, (tokenHash: string) =>
    db
      .selectFrom('api_tokens')
      .innerJoin('users', 'users.id', 'api_tokens.user_id')
      .select(['users.id', 'users.name', 'users.role'])
      .where('api_tokens.token_hash', '=', tokenHash),
  );
  return {
    findUserByEmail: (email: string) =>
      db
        .selectFrom('users')
        .select(['id', 'name', 'role', 'password_hash'])
        .where('email', '=', email)
        .executeTakeFirst(),

    findSessionUser: async (sessionHash: string, now: string) =>
      (await sessionUser(db, sessionHash, now))[0],

    /** Replaces the previous session (if any) by a new one in one transaction: the id rotates at sign-in. */
    rotateSession: (previousHash: string | undefined, session: Database['sessions']) =>
      db.transaction().execute(async (trx) => {
        if (previousHash) await trx.deleteFrom('sessions').where('id', '=', previousHash).execute();
        await trx.insertInto('sessions').values(session).execute();
      }),

    deleteSession: (sessionHash: string) =>
      db.deleteFrom('sessions').where('id', '=', sessionHash).execute(),

    insertToken: (userId: number, tokenHash: string, createdAt: string) =>
      db
        .insertInto('api_tokens')
        .values({ user_id: userId, token_hash: tokenHash, created_at: createdAt })
        .execute(),

    findTokenUser: async (tokenHash: string): Promise<SignedInUser | undefined> =>
      (await tokenUser(db, tokenHash))[0],
  };
};

export type AuthRepository = ReturnType<typeof createAuthRepository>;
