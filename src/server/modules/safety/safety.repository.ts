import type { Db, Executor } from '../../db/database.js';
import type { ReportsTable } from '../../db/schema.js';
import { lockUserRow } from '../../db/user-rows.js';
import { attachmentsOfChats, chatQuery } from '../../read-model/chat.repository.js';

export type ReportStatusValue = ReportsTable['status'];

/** A report with the host's ids of both parties (the host's list and the webhook). */
const reportQuery = (executor: Executor) =>
  executor
    .selectFrom('reports as r')
    .innerJoin('users as reporter', 'reporter.id', 'r.reporter_id')
    .innerJoin('users as reported', 'reported.id', 'r.reported_id')
    // the conversation's job, for the host's ids of its messages
    .leftJoin('messenger_users as mu', 'mu.id', 'r.messenger_user_id')
    .leftJoin('jobs as j', 'j.id', 'mu.job_id')
    .select([
      'r.id',
      'r.reporter_id',
      'r.reported_id',
      'j.external_id as job_external_id',
      'r.reason',
      'r.details',
      'r.status',
      'r.messages',
      'r.messenger_user_id',
      'r.created_at',
      'reporter.external_id as reporter_external_id',
      'reported.external_id as reported_external_id',
    ]);

/** The user's blocks, each with the blocked user's name. */
const blocksQuery = (executor: Executor, blockerId: number) =>
  executor
    .selectFrom('user_blocks as b')
    .innerJoin('users as u', 'u.id', 'b.blocked_id')
    .select(['b.blocked_id as user_id', 'u.name', 'b.created_at as blocked_at'])
    .where('b.blocker_id', '=', blockerId);

/** All SQL of keeping people safe: blocks between users, and reports of conversations. */
export const createSafetyRepository = ({ dialect }: Db) => ({
  /** The conversation's two parties (undefined: no such conversation). */
  findConversation: (executor: Executor, id: number) =>
    executor
      .selectFrom('messenger_users')
      .select(['id', 'candidate_id', 'company_id'])
      .where('id', '=', id)
      .executeTakeFirst(),

  /** The other user, when the two share at least one conversation (either side). */
  findPartner: (executor: Executor, userId: number, otherId: number) =>
    executor
      .selectFrom('users as u')
      .select(['u.id', 'u.name'])
      .where('u.id', '=', otherId)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('messenger_users as mu')
            .select('mu.id')
            .where((w) =>
              w.or([
                w.and([w('mu.candidate_id', '=', userId), w('mu.company_id', '=', otherId)]),
                w.and([w('mu.company_id', '=', userId), w('mu.candidate_id', '=', otherId)]),
              ]),
            ),
        ),
      )
      .executeTakeFirst(),

  /** Whom the user blocked, latest first. */
  listBlocks: (executor: Executor, blockerId: number) =>
    blocksQuery(executor, blockerId)
      .orderBy('b.created_at', 'desc')
      .orderBy('b.blocked_id', 'desc')
      .execute(),

  /** One of the user's blocks (undefined: not blocked). */
  findBlock: (executor: Executor, blockerId: number, blockedId: number) =>
    blocksQuery(executor, blockerId).where('b.blocked_id', '=', blockedId).executeTakeFirst(),

  /** True when the block is new (false: it was there already). */
  insertBlock: async (executor: Executor, blockerId: number, blockedId: number, now: string) => {
    const row = await executor
      .insertInto('user_blocks')
      .values({ blocker_id: blockerId, blocked_id: blockedId, created_at: now })
      .onConflict((oc) => oc.columns(['blocker_id', 'blocked_id']).doNothing())
      .returning('blocker_id')
      .executeTakeFirst();
    return row !== undefined;
  },

  /** True when there was a block to lift. */
  deleteBlock: async (executor: Executor, blockerId: number, blockedId: number) => {
    const result = await executor
      .deleteFrom('user_blocks')
      .where('blocker_id', '=', blockerId)
      .where('blocked_id', '=', blockedId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },

  /** Whether either of the two blocked the other. */
  blockedEitherWay: async (executor: Executor, a: number, b: number): Promise<boolean> => {
    const row = await executor
      .selectFrom('user_blocks')
      .select('blocker_id')
      .where((eb) =>
        eb.or([
          eb.and([eb('blocker_id', '=', a), eb('blocked_id', '=', b)]),
          eb.and([eb('blocker_id', '=', b), eb('blocked_id', '=', a)]),
        ]),
      )
      .executeTakeFirst();
    return row !== undefined;
  },

  /**
   * Holds the reporter's row until the transaction ends: two reports of one user count their day
   * one after the other (PostgreSQL; SQLite runs one write transaction at a time anyway).
   */
  lockReporter: (executor: Executor, reporterId: number) =>
    lockUserRow(executor, dialect, reporterId),

  /** How many reports the user filed since that moment, and when the oldest of them was. */
  countReportsSince: async (executor: Executor, reporterId: number, since: string) => {
    const row = await executor
      .selectFrom('reports')
      .select((eb) => [
        eb.fn.countAll<number | string>().as('total'),
        eb.fn.min<string | null>('created_at').as('oldest'),
      ])
      .where('reporter_id', '=', reporterId)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow();
    return { total: Number(row.total), oldest: row.oldest };
  },

  /** The conversation's latest messages (newest first) and their files. */
  latestMessages: async (executor: Executor, conversationId: number, limit: number) => {
    const chats = await chatQuery(executor)
      .where('c.messenger_user_id', '=', conversationId)
      .orderBy('c.id', 'desc')
      .limit(limit)
      .execute();
    const files = await attachmentsOfChats(
      executor,
      chats.map((chat) => chat.id),
    );
    return { chats, files };
  },

  insertReport: (executor: Executor, values: Omit<ReportsTable, 'id'>) =>
    executor
      .insertInto('reports')
      .values(values)
      .returning(['id', 'created_at'])
      .executeTakeFirstOrThrow(),

  findReport: (executor: Executor, id: number) =>
    reportQuery(executor).where('r.id', '=', id).executeTakeFirst(),

  /** Newest first, from just before `beforeId` (null: the newest), at most `limit`. */
  listReports: (
    executor: Executor,
    filter: { status: ReportStatusValue | null; beforeId: number | null; limit: number },
  ) => {
    let query = reportQuery(executor);
    if (filter.status !== null) query = query.where('r.status', '=', filter.status);
    if (filter.beforeId !== null) query = query.where('r.id', '<', filter.beforeId);
    return query.orderBy('r.id', 'desc').limit(filter.limit).execute();
  },

  /** True when the report exists (its status is then `status`). */
  setReportStatus: async (
    executor: Executor,
    id: number,
    status: ReportStatusValue,
    now: string,
  ): Promise<boolean> => {
    const result = await executor
      .updateTable('reports')
      .set({ status, updated_at: now })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },
});

export type SafetyRepository = ReturnType<typeof createSafetyRepository>;
export type ReportRow = NonNullable<Awaited<ReturnType<SafetyRepository['findReport']>>>;
