import { sql, type Kysely } from 'kysely';

/**
 * Lists at scale (docs/performance.md, "Paging the conversation list"): a page of one viewer's
 * archived (or active) conversations walks an index in list order, and the list's counters read
 * only the rows they count.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  for (const party of ['company', 'candidate'] as const) {
    // `job_id=…`: 001's index ends at `activity_at`; with `id` too, the page's order (activity, id)
    // is the index order on PostgreSQL as well (SQLite's indexes end with the rowid anyway).
    await db.schema.dropIndex(`messenger_users_${party}_job_idx`).execute();
    await db.schema
      .createIndex(`messenger_users_${party}_job_idx`)
      .on('messenger_users')
      .columns([`${party}_id`, 'job_id', 'activity_at', 'id'])
      .execute();
    // `archived=0|1`: the page is a range of this index, newest activity first.
    await db.schema
      .createIndex(`messenger_users_${party}_archive_activity_idx`)
      .on('messenger_users')
      .columns([`${party}_id`, `${party}_archive`, 'activity_at', 'id'])
      .execute();
    // `unread_total`: only the viewer's conversations with something unread.
    await db.schema
      .createIndex(`messenger_users_${party}_unread_idx`)
      .on('messenger_users')
      .columns([`${party}_id`, `${party}_unread`])
      .where(sql.ref(`${party}_unread`), '>', 0)
      .execute();
  }
};
