import { sql, type Kysely } from 'kysely';

/**
 * E-mail addresses are unique without regard to case and stored in lower case.
 *
 * Rows that already share an address in another case (`Lina7@Example.com` and `LINA7@example.com`,
 * one mailbox) cannot both keep it. One row keeps it: the one whose address is already in lower case
 * (the only one the sign-in form could ever find, since it lower-cases what is typed), else the
 * oldest (lowest id). The others lose their address (`email` = null): they sign in through the host's
 * links only, and get no notification e-mail, until the host gives them an address of their own. No
 * row gains an address it did not have, so nobody can sign into an account that was not theirs.
 * `docs/security.md` ("E-mail addresses") tells operators how to list such rows before upgrading.
 *
 * Then every address is lower-cased, and a unique index on `lower(email)` keeps it so in the
 * database too (several nulls are allowed, on both databases).
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  // Without an index on lower(email) the search for a keeper scans the table once per row (SQLite:
  // minutes at 100,000 users, holding the start); with it each row is one index lookup.
  await db.schema
    .createIndex('users_email_lower_upgrade')
    .on('users')
    .expression(sql`lower(email)`)
    .execute();
  await sql`
    update users set email = null
    where email is not null
      and exists (
        select 1 from users keeper
        where lower(keeper.email) = lower(users.email)
          and keeper.id <> users.id
          and (
            (keeper.email = lower(keeper.email)) > (users.email = lower(users.email))
            or ((keeper.email = lower(keeper.email)) = (users.email = lower(users.email))
                and keeper.id < users.id)
          )
      )
  `.execute(db);
  await sql`update users set email = lower(email) where email <> lower(email)`.execute(db);
  await db.schema
    .createIndex('users_email_lower_unique')
    .on('users')
    .unique()
    .expression(sql`lower(email)`)
    .execute();
  await db.schema.dropIndex('users_email_lower_upgrade').execute();
};
