import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, NewChat } from '../../db/schema.js';

type Executor = Kysely<Database> | Transaction<Database>;

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

const conversationQuery = (db: Executor) =>
  db
    .selectFrom('messenger_users as mu')
    .innerJoin('users as cand', 'cand.id', 'mu.candidate_id')
    .innerJoin('users as comp', 'comp.id', 'mu.company_id')
    .leftJoin('jobs as j', 'j.id', 'mu.job_id')
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
      'comp.name as company_name',
      'comp.logo as company_logo',
      'j.title as job_title',
      'j.status as job_status',
      'j.deadline as job_deadline',
    ]);

export type ConversationRow = Awaited<
  ReturnType<ReturnType<typeof conversationQuery>['executeTakeFirstOrThrow']>
>;

const chatQuery = (db: Executor) =>
  db
    .selectFrom('chats as c')
    .innerJoin('users as s', 's.id', 'c.sender_id')
    .select([
      'c.id',
      'c.sender_id',
      'c.receiver_id',
      'c.job_id',
      'c.messenger_user_id',
      'c.message',
      'c.client_id',
      'c.created_at',
      'c.seen_at',
      's.name as sender_name',
    ]);

export type ChatRowWithSender = Awaited<
  ReturnType<ReturnType<typeof chatQuery>['executeTakeFirstOrThrow']>
>;

export const createMessengerRepository = (db: Kysely<Database>) => ({
  transaction: <T>(work: (trx: Transaction<Database>) => Promise<T>) =>
    db.transaction().execute(work),

  listConversations: (viewerId: number, side: Side, jobId: number | null) => {
    let query = conversationQuery(db).where(`mu.${side.party}`, '=', viewerId);
    if (jobId !== null) query = query.where('mu.job_id', '=', jobId);
    return query.orderBy('mu.activity_at', 'desc').orderBy('mu.id', 'desc').execute();
  },

  findConversation: (id: number, executor: Executor = db) =>
    conversationQuery(executor).where('mu.id', '=', id).executeTakeFirst(),

  findConversationId: (candidateId: number, companyId: number, jobId: number | null) =>
    db
      .selectFrom('messenger_users')
      .select('id')
      .where('candidate_id', '=', candidateId)
      .where('company_id', '=', companyId)
      .where('job_key', '=', jobId ?? 0)
      .executeTakeFirst(),

  /** A company's own jobs. */
  jobsOfCompany: (companyId: number) =>
    db
      .selectFrom('jobs')
      .select(['id', 'title', 'status', 'deadline'])
      .where('company_id', '=', companyId)
      .orderBy('id', 'desc')
      .execute(),

  /** The jobs a candidate's conversations are about. */
  jobsOfCandidateConversations: (candidateId: number) =>
    db
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

  findJob: (id: number) =>
    db
      .selectFrom('jobs')
      .select(['id', 'title', 'status', 'deadline'])
      .where('id', '=', id)
      .executeTakeFirst(),

  findUser: (id: number) =>
    db
      .selectFrom('users')
      .select(['id', 'name', 'role', 'image_url', 'logo'])
      .where('id', '=', id)
      .executeTakeFirst(),

  applicationGroup: (jobId: number, candidateId: number) =>
    db
      .selectFrom('applications as a')
      .innerJoin('application_groups as g', 'g.id', 'a.application_group_id')
      .select(['g.id', 'g.name'])
      .where('a.job_id', '=', jobId)
      .where('a.candidate_id', '=', candidateId)
      .executeTakeFirst(),

  /** One page of history, newest first (the caller reverses it). */
  chatsPage: (conversationId: number, before: number | undefined, limit: number) => {
    let query = chatQuery(db).where('c.messenger_user_id', '=', conversationId);
    if (before !== undefined) query = query.where('c.id', '<', before);
    return query.orderBy('c.id', 'desc').limit(limit).execute();
  },

  findChatByClientId: (senderId: number, clientId: string, executor: Executor = db) =>
    chatQuery(executor)
      .where('c.sender_id', '=', senderId)
      .where('c.client_id', '=', clientId)
      .executeTakeFirst(),

  /**
   * Marks the viewer's unread messages of a conversation as seen. The counter row is updated first so
   * that, on PostgreSQL, a concurrent send (which also updates that row) is serialized with it.
   */
  markSeen: async (
    trx: Transaction<Database>,
    conversationId: number,
    viewerId: number,
    side: Side,
    now: string,
  ) => {
    await trx
      .updateTable('messenger_users')
      .set({ [side.unread]: 0 })
      .where('id', '=', conversationId)
      .execute();
    await trx
      .updateTable('chats')
      .set({ seen_at: now })
      .where('messenger_user_id', '=', conversationId)
      .where('receiver_id', '=', viewerId)
      .where('seen_at', 'is', null)
      .execute();
  },

  insertChat: (trx: Transaction<Database>, chat: NewChat) =>
    trx.insertInto('chats').values(chat).returning('id').executeTakeFirstOrThrow(),

  /** Preview, activity time, the receiver's unread count, and un-archiving for the receiver. */
  recordSend: (
    trx: Transaction<Database>,
    conversationId: number,
    receiverSide: Side,
    preview: string,
    at: string,
  ) =>
    trx
      .updateTable('messenger_users')
      .set((eb) => ({
        last_message: preview,
        last_message_at: at,
        activity_at: at,
        [receiverSide.unread]: eb(receiverSide.unread, '+', 1),
        [receiverSide.archive]: 0,
      }))
      .where('id', '=', conversationId)
      // The row as this send leaves it (the row stays locked until commit): no re-read needed.
      .returning([
        'last_message',
        'last_message_at',
        'candidate_unread',
        'company_unread',
        'candidate_archive',
        'company_archive',
      ])
      .executeTakeFirstOrThrow(),

  setArchive: (conversationId: number, side: Side, archived: boolean) =>
    db
      .updateTable('messenger_users')
      .set({ [side.archive]: archived ? 1 : 0 })
      .where('id', '=', conversationId)
      .execute(),
});

export type MessengerRepository = ReturnType<typeof createMessengerRepository>;
