import { sql, type Kysely } from 'kysely';
import { prepareQuery, type Db, type DialectName, type Executor } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { attachmentsOfChats, chatQuery } from '../../read-model/chat.repository.js';
import {
  conversationQuery,
  first,
  prepareFindConversation,
  type Side,
} from './conversation-query.repository.js';

/** What narrows the viewer's list: a job, a search, the viewer's archive flag (null: no filter). */
export interface ListFilter {
  jobId: number | null;
  search: string | null;
  archived: boolean | null;
}

/** `%`, `_` and the escape character itself match only themselves in a `like ... escape '\'`. */
const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

/**
 * The viewer's conversations, narrowed. The search (case-insensitive "contains" on the other
 * party's name or the job title) is `lower(...) like lower(?)` on both databases (SQLite's `like`
 * ignores only ASCII case, PostgreSQL's none), asked in the form each plans best:
 * - SQLite: on the joined rows while the viewer's conversations are walked in list order;
 * - PostgreSQL: as "the other party is one of the users whose name matches, or the job one of the
 *   jobs whose title matches": the trigram indexes of migration 007 find those, and the walk only
 *   probes their ids (a predicate on the joined rows would join every conversation first).
 */
const filtered = <Q extends ReturnType<typeof conversationQuery>>(
  query: Q,
  dialect: DialectName,
  viewerId: number,
  side: Side,
  filter: ListFilter,
): Q => {
  let narrowed = query.where(`mu.${side.party}`, '=', viewerId);
  if (filter.jobId !== null) narrowed = narrowed.where('mu.job_id', '=', filter.jobId);
  if (filter.archived !== null)
    narrowed = narrowed.where(`mu.${side.archive}`, '=', filter.archived ? 1 : 0);
  if (filter.search !== null) {
    const pattern = containsPattern(filter.search);
    const contains = (column: string) =>
      sql<boolean>`lower(${sql.ref(column)}) like lower(${pattern}) escape '\\'`;
    const otherParty = side.party === 'candidate_id' ? 'company_id' : 'candidate_id';
    narrowed =
      dialect === 'postgres'
        ? narrowed.where((eb) =>
            eb.or([
              eb(
                `mu.${otherParty}`,
                'in',
                eb.selectFrom('users as su').select('su.id').where(contains('su.name')),
              ),
              eb(
                'mu.job_id',
                'in',
                eb.selectFrom('jobs as sj').select('sj.id').where(contains('sj.title')),
              ),
            ]),
          )
        : narrowed.where((eb) =>
            eb.or([
              contains(otherParty === 'company_id' ? 'comp.name' : 'cand.name'),
              contains('j.title'),
            ]),
          );
  }
  return narrowed as Q;
};

/** Rows in list order: newest position first, the higher id first at the same moment. */
const newestFirst = <T extends { list_at: string; id: number }>(rows: T[]): T[] =>
  rows.sort((a, b) => (a.list_at === b.list_at ? b.id - a.id : a.list_at < b.list_at ? 1 : -1));

/** The queries of opening a conversation, prepared once (see prepareQuery). */
const preparedQueries = (db: Kysely<Database>) => ({
  findConversation: prepareFindConversation(db),
  findConversationId: prepareQuery(3, (candidateId: number, companyId: number, jobKey: number) =>
    db
      .selectFrom('messenger_users')
      .select(['id', 'candidate_unread', 'company_unread'])
      .where('candidate_id', '=', candidateId)
      .where('company_id', '=', companyId)
      .where('job_key', '=', jobKey),
  ),
  findJob: prepareQuery(1, (id: number) =>
    db.selectFrom('jobs').select(['id', 'title', 'status', 'deadline']).where('id', '=', id),
  ),
  findUser: prepareQuery(1, (id: number) =>
    db.selectFrom('users').select(['id', 'name', 'role', 'image_url', 'logo']).where('id', '=', id),
  ),
  applicationGroup: prepareQuery(2, (jobId: number, candidateId: number) =>
    db
      .selectFrom('applications as a')
      .innerJoin('application_groups as g', 'g.id', 'a.application_group_id')
      .select(['g.id', 'g.name'])
      .where('a.job_id', '=', jobId)
      .where('a.candidate_id', '=', candidateId),
  ),
  chatsPage: prepareQuery(2, (conversationId: number, limit: number) =>
    chatQuery(db)
      .where('c.messenger_user_id', '=', conversationId)
      .orderBy('c.id', 'desc')
      .limit(limit),
  ),
  chatsPageBefore: prepareQuery(3, (conversationId: number, before: number, limit: number) =>
    chatQuery(db)
      .where('c.messenger_user_id', '=', conversationId)
      .where('c.id', '<', before)
      .orderBy('c.id', 'desc')
      .limit(limit),
  ),
});

/**
 * The conversation queries: the viewer's lists and their pages, counters and archive flags, one
 * conversation and its history. Built once per database; each function takes the executor first.
 */
export const createConversationsRepository = ({ kysely: db, dialect }: Db) => {
  const q = preparedQueries(db);

  /**
   * One page of the viewer's list as it was just before `t0`, after the position `after` (none:
   * the first page), at most `limit` rows, each with its position (`list_at`, `id`). Why and how:
   * docs/performance.md, "Paging the conversation list".
   *
   * Two index walks, merged: (1) conversations not changed since `t0` (`activity_at < t0`) are
   * where `activity_at` says, a range of the `(party, archive, activity_at, id)` index read from
   * the cursor on; (2) conversations changed since (few: those with a message since `t0`) are put
   * back where they were: at their latest message created before `t0` (one backward step on
   * `chats (messenger_user_id, id)`), or their creation when they had none. Conversations created
   * at or after `t0` are on no page of this walk (a new first page and live events bring them).
   * `t0` itself belongs to "changed" so that a message in the very millisecond of `t0` cannot
   * move a conversation between pages.
   */
  const listPageOf = async (
    executor: Executor,
    viewerId: number,
    side: Side,
    filter: ListFilter,
    page: { t0: string; after: { at: string; id: number } | null; limit: number },
  ) => {
    const { t0, after, limit } = page;
    // A position is always before `t0`: after one, the index range starts at the cursor.
    const unchanged = filtered(conversationQuery(executor), dialect, viewerId, side, filter)
      .select('mu.activity_at as list_at')
      .where((eb) =>
        after
          ? eb(eb.refTuple('mu.activity_at', 'mu.id'), '<', eb.tuple(after.at, after.id))
          : eb('mu.activity_at', '<', t0),
      );
    const asOfT0 = sql<string>`coalesce((${executor
      .selectFrom('chats as c')
      .select('c.created_at')
      .where('c.messenger_user_id', '=', sql.ref<number>('mu.id'))
      .where('c.created_at', '<', t0)
      .orderBy('c.id', 'desc')
      .limit(1)}), ${sql.ref('mu.created_at')})`;
    let changed = executor
      .selectFrom(
        filtered(conversationQuery(executor), dialect, viewerId, side, filter)
          .select(asOfT0.as('list_at'))
          .where('mu.activity_at', '>=', t0)
          .where('mu.created_at', '<', t0)
          .as('moved'),
      )
      .selectAll();
    if (after)
      changed = changed.where((eb) =>
        eb(eb.refTuple('moved.list_at', 'moved.id'), '<', eb.tuple(after.at, after.id)),
      );
    const [stayed, moved] = await Promise.all([
      unchanged.orderBy('mu.activity_at', 'desc').orderBy('mu.id', 'desc').limit(limit).execute(),
      changed.orderBy('moved.list_at', 'desc').orderBy('moved.id', 'desc').limit(limit).execute(),
    ]);
    return newestFirst([...stayed, ...moved]).slice(0, limit);
  };

  return {
    /** All the viewer's conversations (no `limit`), newest activity first. */
    listConversations: (executor: Executor, viewerId: number, side: Side, filter: ListFilter) =>
      filtered(conversationQuery(executor), dialect, viewerId, side, filter)
        .orderBy('mu.activity_at', 'desc')
        .orderBy('mu.id', 'desc')
        .execute(),

    listPage: (
      executor: Executor,
      viewerId: number,
      side: Side,
      filter: ListFilter,
      page: { t0: string; after: { at: string; id: number } | null; limit: number },
    ) =>
      filter.archived === null && filter.jobId === null
        ? // Neither an archive flag nor a job: the page of each archive flag (each a range of the
          // archive index; the index of the party's activity alone is gone, migration 018), merged.
          Promise.all(
            [false, true].map((archived) =>
              listPageOf(executor, viewerId, side, { ...filter, archived }, page),
            ),
          ).then((pages) => newestFirst(pages.flat()).slice(0, page.limit))
        : listPageOf(executor, viewerId, side, filter, page),

    /** Over all the viewer's conversations: unread messages, and archived conversations. */
    listCounts: async (executor: Executor, viewerId: number, side: Side) => {
      // Each one reads only what it counts (migration 006's partial unread and archive indexes).
      const [unread, archived] = await Promise.all([
        executor
          .selectFrom('messenger_users')
          .select((eb) => eb.fn.sum<number | string | null>(side.unread).as('total'))
          .where(side.party, '=', viewerId)
          // A literal, not a parameter: only then may the planner use the partial index.
          .where(side.unread, '>', sql.lit(0))
          .executeTakeFirst(),
        executor
          .selectFrom('messenger_users')
          .select((eb) => eb.fn.countAll<number | string>().as('total'))
          .where(side.party, '=', viewerId)
          .where(side.archive, '=', 1)
          .executeTakeFirst(),
      ]);
      return {
        unread_total: Number(unread?.total ?? 0),
        archived_count: Number(archived?.total ?? 0),
      };
    },

    findConversation: async (executor: Executor, id: number) =>
      first(await q.findConversation(executor, id)),

    /** These conversations, where `viewerId` is the party on `side` (others are left out). */
    findOwnConversations: (
      executor: Executor,
      ids: readonly number[],
      viewerId: number,
      side: Side,
    ) =>
      ids.length === 0
        ? Promise.resolve([])
        : conversationQuery(executor)
            .where('mu.id', 'in', [...ids])
            .where(`mu.${side.party}`, '=', viewerId)
            .execute(),

    findConversationId: async (
      executor: Executor,
      candidateId: number,
      companyId: number,
      jobId: number | null,
    ) => first(await q.findConversationId(executor, candidateId, companyId, jobId ?? 0)),

    /** A company's own jobs. */
    jobsOfCompany: (executor: Executor, companyId: number) =>
      executor
        .selectFrom('jobs')
        .select(['id', 'title', 'status', 'deadline'])
        .where('company_id', '=', companyId)
        .orderBy('id', 'desc')
        .execute(),

    /** The jobs a candidate's conversations are about. */
    jobsOfCandidateConversations: (executor: Executor, candidateId: number) =>
      executor
        .selectFrom('jobs')
        .select(['id', 'title', 'status', 'deadline'])
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('messenger_users as mu')
              .select(sql.lit(1).as('one'))
              .whereRef('mu.job_id', '=', 'jobs.id')
              .where('mu.candidate_id', '=', candidateId),
          ),
        )
        .orderBy('id', 'desc')
        .execute(),

    findJob: async (executor: Executor, id: number) => first(await q.findJob(executor, id)),

    findUser: async (executor: Executor, id: number) => first(await q.findUser(executor, id)),

    applicationGroup: async (executor: Executor, jobId: number, candidateId: number) =>
      first(await q.applicationGroup(executor, jobId, candidateId)),

    /** One page of history, newest first (the caller reverses it). */
    chatsPage: (
      executor: Executor,
      conversationId: number,
      before: number | undefined,
      limit: number,
    ) =>
      before === undefined
        ? q.chatsPage(executor, conversationId, limit)
        : q.chatsPageBefore(executor, conversationId, before, limit),

    /** The attachments of these messages, oldest first. */
    attachmentsOfChats,

    setArchive: (executor: Executor, conversationId: number, side: Side, archived: boolean) =>
      executor
        .updateTable('messenger_users')
        .set({ [side.archive]: archived ? 1 : 0 })
        .where('id', '=', conversationId)
        .execute(),
  };
};

export type ConversationsRepository = ReturnType<typeof createConversationsRepository>;
