import { sql, type Kysely } from 'kysely';
import { prepareQuery, type Executor, type RowOf } from '../../db/database.js';
import type { Database } from '../../db/schema.js';

/** The side of a conversation a viewer is on: which id column, unread counter and archive flag are theirs. */
export interface Side {
  party: 'candidate_id' | 'company_id';
  unread: 'candidate_unread' | 'company_unread';
  archive: 'candidate_archive' | 'company_archive';
}

export const CANDIDATE_SIDE: Side = {
  party: 'candidate_id',
  unread: 'candidate_unread',
  archive: 'candidate_archive',
};
export const COMPANY_SIDE: Side = {
  party: 'company_id',
  unread: 'company_unread',
  archive: 'company_archive',
};

/** A conversation with both parties, their switches and its job: what the messenger reads. */
export const conversationQuery = (db: Executor) =>
  db
    .selectFrom('messenger_users as mu')
    .innerJoin('users as cand', 'cand.id', 'mu.candidate_id')
    .innerJoin('users as comp', 'comp.id', 'mu.company_id')
    .leftJoin('jobs as j', 'j.id', 'mu.job_id')
    // each party's own switches (no row: the defaults, on)
    .leftJoin('user_settings as cset', 'cset.user_id', 'mu.candidate_id')
    .leftJoin('user_settings as pset', 'pset.user_id', 'mu.company_id')
    .select([
      'mu.id',
      'mu.candidate_id',
      'mu.company_id',
      'mu.job_id',
      'mu.last_message',
      'mu.last_message_at',
      'mu.candidate_unread',
      'mu.company_unread',
      'mu.candidate_archive',
      'mu.company_archive',
      'cand.name as candidate_name',
      'cand.image_url as candidate_image_url',
      'cand.erased_at as candidate_erased_at',
      'comp.name as company_name',
      'comp.logo as company_logo',
      'comp.erased_at as company_erased_at',
      'cand.last_seen_at as candidate_last_seen_at',
      'comp.last_seen_at as company_last_seen_at',
      'cset.show_online as candidate_show_online',
      'pset.show_online as company_show_online',
      'cset.read_receipts as candidate_read_receipts',
      'pset.read_receipts as company_read_receipts',
      'j.title as job_title',
      'j.status as job_status',
      'j.deadline as job_deadline',
      'cand.suspended_at as candidate_suspended_at',
      'comp.suspended_at as company_suspended_at',
      // the host's ids (webhook bodies of a send are built from this read, no other)
      'cand.external_id as candidate_external_id',
      'comp.external_id as company_external_id',
      'j.external_id as job_external_id',
      // Blocks ride in this read (a send's only read): 1 when that party blocked the other one.
      sql<number>`case when exists (select 1 from user_blocks b where b.blocker_id = mu.candidate_id and b.blocked_id = mu.company_id) then 1 else 0 end`.as(
        'candidate_blocked',
      ),
      sql<number>`case when exists (select 1 from user_blocks b where b.blocker_id = mu.company_id and b.blocked_id = mu.candidate_id) then 1 else 0 end`.as(
        'company_blocked',
      ),
    ]);

export type ConversationRow = RowOf<ReturnType<typeof conversationQuery>>;

/** The conversation by its id, as `conversationQuery` reads it: prepared once per database. */
export const prepareFindConversation = (db: Kysely<Database>) =>
  prepareQuery(1, (id: number) => conversationQuery(db).where('mu.id', '=', id));

/** One prepared query per side (the side picks column names, so it is part of the SQL). */
export const perSide = <T>(make: (side: Side) => T): ((side: Side) => T) => {
  const made = new Map<string, T>();
  return (side) => {
    const key = `${side.party}|${side.unread}|${side.archive}`;
    let value = made.get(key);
    if (value === undefined) {
      value = make(side);
      made.set(key, value);
    }
    return value;
  };
};

export const first = <T>(rows: T[]): T | undefined => rows[0];
export const only = <T>(rows: T[]): T => {
  const row = rows[0];
  if (row === undefined) throw new Error('The query returned no row.');
  return row;
};
