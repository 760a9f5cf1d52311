import { sql, type Kysely } from 'kysely';

/**
 * One language per user (docs/language.md): `users.locale` is the only place it is kept. The host
 * (`PUT /api/v1/users/{externalId}` with `locale`, sign-in links' `locale` claim) and the user's
 * own choice (`PATCH /user/settings` with `locale`, the page's language switch, `?lang=`) both write
 * it, the last write wins, and both read it back; e-mails are written in it.
 *
 * Until now the user's choice was kept apart, in `user_settings.locale`, and won over the host's.
 * It moves into `users.locale` here: where both are set, the user's choice is kept, because the
 * database cannot tell which was written last (`users` records no time of change, and
 * `user_settings.updated_at` is the time of any switch, not of the language) and it is the one the
 * page and the e-mails were already using, so no one's language changes. A user with no choice of
 * their own keeps the host's.
 *
 * The old column stays, unread and unwritten: during a rolling restart the previous version still
 * reads and writes it (dropping it here would fail its settings calls and e-mails until it stops).
 * A later release drops it.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await sql`
    update users set locale = (
      select s.locale from user_settings s where s.user_id = users.id
    )
    where exists (
      select 1 from user_settings s where s.user_id = users.id and s.locale is not null
    )`.execute(db);
};
