import { sql, type Kysely, type Transaction } from 'kysely';
import {
  prepareQuery,
  type Db,
  type DialectName,
  type Executor,
  type RowOf,
} from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { createWriteBatcher } from '../../db/write-batcher.js';
import { nowIso } from '../../lib/time.js';
import {
  createTaskWriter,
  insertTasks,
  type NewOutboxTask,
} from '../../outbox/outbox.repository.js';
import { searchDocument } from '../../../shared/search-text.js';
import {
  addSqliteTerms,
  indexMessage,
  searchVectorOf,
  unindexMessage,
} from '../../db/search-index.js';
import type { AttachmentRow } from '../../read-model/chat.presenter.js';
import {
  attachmentsOfChats,
  chatQuery,
  type ChatRowWithSender,
} from '../../read-model/chat.repository.js';

export type { ChatRowWithSender };

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

/** One prepared query per side (the side picks column names, so it is part of the SQL). */
const perSide = <T>(make: (side: Side) => T): ((side: Side) => T) => {
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

const first = <T>(rows: T[]): T | undefined => rows[0];
const only = <T>(rows: T[]): T => {
  const row = rows[0];
  if (row === undefined) throw new Error('The query returned no row.');
  return row;
};

/** A new message's columns, in the order the send passes them. */
type NewChatRow = [
  messengerUserId: number,
  senderId: number,
  receiverId: number,
  jobId: number | null,
  message: string,
  clientId: string | null,
  createdAt: string,
  seenAt: string | null,
];
const chatValues = ([
  messengerUserId,
  senderId,
  receiverId,
  jobId,
  message,
  clientId,
  createdAt,
  seenAt,
]: NewChatRow) => ({
  messenger_user_id: messengerUserId,
  sender_id: senderId,
  receiver_id: receiverId,
  job_id: jobId,
  message,
  client_id: clientId,
  created_at: createdAt,
  seen_at: seenAt,
});

/**
 * The queries of the hot paths (send, open a conversation) are prepared once (see prepareQuery):
 * same SQL as building them per call, without rebuilding and recompiling it every time.
 */
const preparedQueries = (db: Kysely<Database>) => ({
  findConversation: prepareQuery(1, (id: number) => conversationQuery(db).where('mu.id', '=', id)),
  // PostgreSQL only (see findConversationForSend).
  findConversationForSend: prepareQuery(1, (id: number) =>
    conversationQuery(db)
      .select(sql<number>`nextval('chats_id_seq')::integer`.as('next_chat_id'))
      .where('mu.id', '=', id),
  ),
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
  findChatByClientId: prepareQuery(2, (senderId: number, clientId: string) =>
    chatQuery(db).where('c.sender_id', '=', senderId).where('c.client_id', '=', clientId),
  ),
  markSeenCounter: perSide((side) =>
    prepareQuery(1, (conversationId: number) =>
      db
        .updateTable('messenger_users')
        .set({ [side.unread]: 0 })
        .where('id', '=', conversationId),
    ),
  ),
  markSeenChats: prepareQuery(
    4,
    (now: string, privately: number, conversationId: number, viewerId: number) =>
      db
        .updateTable('chats')
        .set({ seen_at: now, seen_privately: privately })
        .where('messenger_user_id', '=', conversationId)
        .where('receiver_id', '=', viewerId)
        .where('seen_at', 'is', null)
        .returning('id'),
  ),
  insertChat: prepareQuery(8, (...row: NewChatRow) =>
    db.insertInto('chats').values(chatValues(row)).returning('id'),
  ),
  // PostgreSQL: the same insert, with the message's words for the search (migration 016).
  insertChatIndexed: prepareQuery(9, (...[document, ...row]: [string, ...NewChatRow]) =>
    db
      .insertInto('chats')
      .values({ ...chatValues(row), search_vector: searchVectorOf(document) })
      .returning('id'),
  ),
  // SQLite: the message's words in the search table, in the send's transaction (migration 016).
  indexChat: prepareQuery(2, (chatId: number, document: string) =>
    db.insertInto('chats_search').values({ rowid: chatId, body: document }),
  ),
  recordSend: perSide((receiverSide) =>
    prepareQuery(3, (conversationId: number, preview: string, at: string) =>
      db
        .updateTable('messenger_users')
        .set((eb) => ({
          last_message: preview,
          last_message_at: at,
          activity_at: at,
          [receiverSide.unread]: eb(receiverSide.unread, '+', 1),
          // a send brings the conversation back to both parties' active lists
          candidate_archive: 0,
          company_archive: 0,
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
        ]),
    ),
  ),
});

/**
 * The conversation and message queries. Built once per database (its prepared queries are compiled
 * for that database's dialect); like every repository, each function takes the executor first: the
 * database, or the transaction it is part of.
 */
export const createMessengerRepository = ({ kysely: db, dialect }: Db) => {
  const q = preparedQueries(db);
  const writes = createWriteBatcher(db, dialect);
  const writeTasks = createTaskWriter(db);

  /** The sender's own unused uploads attached to the new message; the rows, in the order asked. */
  const claimAttachments = async (
    executor: Executor,
    ids: readonly number[],
    uploaderId: number,
    chatId: number,
  ): Promise<AttachmentRow[]> => {
    if (ids.length === 0) return [];
    const rows = await executor
      .updateTable('attachments')
      .set({ chat_id: chatId })
      .where('id', 'in', [...ids])
      .where('uploader_id', '=', uploaderId)
      .where('chat_id', 'is', null)
      .returning(['id', 'chat_id', 'name', 'size', 'mime', 'width', 'height', 'thumbnail_key'])
      .execute();
    return [...rows].sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
  };

  const newChat = (send: SendToStore, id: number, createdAt: string): ChatRowWithSender => ({
    id,
    sender_id: send.senderId,
    receiver_id: send.receiverId,
    job_id: send.jobId,
    messenger_user_id: send.conversationId,
    message: send.message,
    client_id: send.clientId,
    created_at: createdAt,
    seen_at: null,
    seen_privately: 0,
    edited_at: null,
    deleted_at: null,
    sender_name: send.senderName,
  });

  /**
   * PostgreSQL: one statement, atomic on its own: the message (with the id `findConversationForSend`
   * took), the conversation's preview, time, receiver's unread count and both archive flags, and the
   * message's outbox tasks. Nothing is written when, since the conversation was read, a party was
   * erased, the sender suspended or blocked by the receiver: then undefined; else the conversation's
   * columns as the send leaves them.
   */
  const writeSendAtOnce = async (
    executor: Executor,
    send: {
      chat: Pick<ChatRowWithSender, NewChatColumn>;
      receiverSide: Side;
      preview: string;
      tasks: readonly NewOutboxTask[];
    },
  ): Promise<RecordedSend | undefined> => {
    const { chat, receiverSide, preview, tasks } = send;
    const unread = sql.ref(receiverSide.unread);
    const at = sql`${chat.created_at}::text`;
    // Sends of one conversation take their ids and times before they queue for its row: one
    // stamped earlier may commit later, and must not push back the preview or the activity time.
    const newest = sql`coalesce(last_message_at, '') <= ${at}`;
    const tasksCte =
      tasks.length === 0
        ? sql``
        : sql`, tasks as (${insertTasks(tasks, chat.created_at, { onlyIfRowIn: 'chat' })})`;
    const result = await sql<RecordedSend>`with chat as (
        insert into chats (id, messenger_user_id, sender_id, receiver_id, job_id, message, client_id, created_at, search_vector)
        select ${chat.id}::integer, ${chat.messenger_user_id}::integer, ${chat.sender_id}::integer,
          ${chat.receiver_id}::integer, ${chat.job_id}::integer, ${chat.message}::text,
          ${chat.client_id}::text, ${chat.created_at}::text, ${searchVectorOf(searchDocument(chat.message))}
        where not exists (
          select 1 from users
          where (id in (${chat.sender_id}::integer, ${chat.receiver_id}::integer)
              and erased_at is not null)
            or (id = ${chat.sender_id}::integer and suspended_at is not null)
        )
        and not exists (
          select 1 from user_blocks
          where blocker_id = ${chat.receiver_id}::integer and blocked_id = ${chat.sender_id}::integer
        )
        returning id
      ), conversation as (
        update messenger_users
        set last_message = case when ${newest} then ${preview}::text else last_message end,
          last_message_at = case when ${newest} then ${at} else last_message_at end,
          activity_at = greatest(activity_at, ${at}), ${unread} = ${unread} + 1,
          candidate_archive = 0, company_archive = 0
        where id = ${chat.messenger_user_id}::integer and exists (select 1 from chat)
        returning last_message, last_message_at, candidate_unread, company_unread,
          candidate_archive, company_archive
      )${tasksCte}
      select * from conversation`.execute(executor);
    return result.rows[0];
  };

  /**
   * PostgreSQL without files: one read (the conversation, and the id the message will have, taken
   * from its sequence now), then every write in one statement: no transaction, no waiting in between.
   */
  const storeAtOnce = async (send: SendToStore): Promise<StoredSend | undefined> => {
    const read = first(await q.findConversationForSend(db, send.conversationId));
    send.check.conversation(read);
    const { next_chat_id: chatId, ...conversation } = read;
    const chat = newChat(send, chatId, nowIso());
    const updated = await writeSendAtOnce(db, {
      chat,
      receiverSide: send.receiverSide,
      preview: send.preview([]),
      tasks: send.tasksFor(chat, [], conversation),
    });
    return updated && { chat, files: [], conversation: { ...conversation, ...updated } };
  };

  /** Any other send: read, then write, in one transaction (on SQLite, sharing its commit). */
  const storeInTransaction = (send: SendToStore): Promise<StoredSend> =>
    writes.run(async (trx) => {
      const conversation = first(await q.findConversation(trx, send.conversationId));
      send.check.conversation(conversation);
      const createdAt = nowIso();
      const document = searchDocument(send.message);
      const row = [
        conversation.id,
        send.senderId,
        send.receiverId,
        send.jobId,
        send.message,
        send.clientId,
        createdAt,
        null,
      ] as const;
      // the message's words enter the search index in the same commit
      const { id } = only(
        dialect === 'postgres'
          ? await q.insertChatIndexed(trx, document, ...row)
          : await q.insertChat(trx, ...row),
      );
      if (dialect === 'sqlite' && document !== '') {
        await q.indexChat(trx, id, document);
        await addSqliteTerms(trx, document);
      }
      const files = await claimAttachments(trx, send.attachmentIds, send.senderId, id);
      send.check.files(files.length);
      const preview = send.preview(files.map((file) => file.name));
      const updated = only(
        await q.recordSend(send.receiverSide)(trx, conversation.id, preview, createdAt),
      );
      const chat = newChat(send, id, createdAt);
      const tasks = send.tasksFor(chat, files, conversation);
      await writeTasks(trx, tasks, createdAt);
      return { chat, files, conversation: { ...conversation, ...updated } };
    });

  return {
    /** All the viewer's conversations (no `limit`), newest activity first. */
    listConversations: (executor: Executor, viewerId: number, side: Side, filter: ListFilter) =>
      filtered(conversationQuery(executor), dialect, viewerId, side, filter)
        .orderBy('mu.activity_at', 'desc')
        .orderBy('mu.id', 'desc')
        .execute(),

    /**
     * One page of the viewer's list as it was just before `t0`, after the position `after` (none:
     * the first page), at most `limit` rows, each with its position (`list_at`, `id`). Why and how:
     * docs/performance.md, "Paging the conversation list".
     *
     * Two index walks, merged: (1) conversations not changed since `t0` (`activity_at < t0`) are
     * where `activity_at` says, a range of the `(party, [archive,] activity_at, id)` index read from
     * the cursor on; (2) conversations changed since (few: those with a message since `t0`) are put
     * back where they were: at their latest message created before `t0` (one backward step on
     * `chats (messenger_user_id, id)`), or their creation when they had none. Conversations created
     * at or after `t0` are on no page of this walk (a new first page and live events bring them).
     * `t0` itself belongs to "changed" so that a message in the very millisecond of `t0` cannot
     * move a conversation between pages.
     */
    listPage: async (
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
      return [...stayed, ...moved]
        .sort((a, b) => (a.list_at === b.list_at ? b.id - a.id : a.list_at < b.list_at ? 1 : -1))
        .slice(0, limit);
    },

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

    findChatByClientId: async (executor: Executor, senderId: number, clientId: string) =>
      first(await q.findChatByClientId(executor, senderId, clientId)),

    /**
     * Marks the viewer's unread messages of a conversation as seen. The counter row is updated first so
     * that, on PostgreSQL, a concurrent send (which also updates that row) is serialized with it.
     */
    markSeen: async (
      executor: Executor,
      conversationId: number,
      viewerId: number,
      side: Side,
      now: string,
      /** The reader has `read_receipts` off: the sender is never shown these as seen. */
      privately: boolean,
    ) => {
      await q.markSeenCounter(side)(executor, conversationId);
      const seen = await q.markSeenChats(
        executor,
        now,
        privately ? 1 : 0,
        conversationId,
        viewerId,
      );
      // the newest message marked seen now (null: there was nothing to mark)
      return seen.reduce<number | null>((last, row) => Math.max(last ?? 0, row.id), null);
    },

    /** The attachments of these messages, oldest first. */
    attachmentsOfChats,

    /**
     * A send's writes, all or nothing: the message, its files, the conversation's preview, time,
     * receiver's unread count and archive flags, and the message's outbox tasks (written by the
     * outbox's own insert, inside the same commit). PostgreSQL without files: one statement after one
     * read (`storeAtOnce`); otherwise one transaction. Undefined: a party was erased between the read
     * and the write, and nothing was written.
     */
    storeSend: (send: SendToStore): Promise<StoredSend | undefined> =>
      dialect === 'postgres' && send.attachmentIds.length === 0
        ? storeAtOnce(send)
        : storeInTransaction(send),

    /** PostgreSQL: the conversation as `findConversation` reads it, and the next message id. */
    findConversationForSend: async (executor: Executor, id: number) =>
      first(await q.findConversationForSend(executor, id)),

    /** PostgreSQL: the write half of `storeSend` on its own (a test commits two sends out of order). */
    writeSendAtOnce,

    /** Runs `work` in a transaction of frequent small writes (on SQLite, sharing its commit). */
    inWriteTransaction: <T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> =>
      writes.run(work),

    /**
     * The message and its conversation, locked until the caller's transaction ends so that edits,
     * deletes, sends and marks seen of the conversation take turns (PostgreSQL: the conversation row,
     * then the message row, `for no key update` (the lock an update takes: a send's foreign-key check
     * of the conversation does not wait for it), in the order a mark seen takes them; SQLite: one writer at
     * a time). Undefined: no such message.
     */
    lockMessage: async (
      trx: Transaction<Database>,
      id: number,
    ): Promise<{ chat: ChatRowWithSender; conversation: ConversationRow } | undefined> => {
      const found = await trx
        .selectFrom('chats')
        .select('messenger_user_id')
        .where('id', '=', id)
        .executeTakeFirst();
      if (!found) return undefined;
      if (dialect === 'postgres')
        await trx
          .selectFrom('messenger_users')
          .select('id')
          .where('id', '=', found.messenger_user_id)
          .forNoKeyUpdate()
          .execute();
      const chat = await chatQuery(trx)
        .where('c.id', '=', id)
        .$if(dialect === 'postgres', (query) => query.forNoKeyUpdate('c'))
        .executeTakeFirst();
      const conversation = first(await q.findConversation(trx, found.messenger_user_id));
      return chat && conversation && { chat, conversation };
    },

    /** The message's new text, edited now. */
    editChat: async (executor: Executor, id: number, message: string, at: string) => {
      await executor
        .updateTable('chats')
        .set({ message, edited_at: at })
        .where('id', '=', id)
        .execute();
    },

    /**
     * The message deleted now: its text emptied, its files' rows removed; the storage keys of those
     * files (their bytes go after the commit).
     */
    deleteChat: async (executor: Executor, id: number, at: string) => {
      await executor
        .updateTable('chats')
        .set({ message: '', deleted_at: at })
        .where('id', '=', id)
        .execute();
      return executor
        .deleteFrom('attachments')
        .where('chat_id', '=', id)
        .returning(['storage_key', 'thumbnail_key'])
        .execute();
    },

    /**
     * The message's entry in the full-text index, as `text` now reads (null, or text without words:
     * no entry). SQLite: the row of `chats_search` whose rowid is the message's id; PostgreSQL:
     * `chats.search_vector`.
     */
    reindexChat: (executor: Executor, chatId: number, text: string | null) =>
      text === null
        ? unindexMessage(executor, dialect, chatId)
        : indexMessage(executor, dialect, chatId, text),

    /** The id of the conversation's newest message not deleted, the one its list row previews (undefined: none). */
    newestShownChatId: async (executor: Executor, conversationId: number) =>
      (
        await executor
          .selectFrom('chats')
          .select('id')
          .where('messenger_user_id', '=', conversationId)
          .where('deleted_at', 'is', null)
          .orderBy('id', 'desc')
          .limit(1)
          .executeTakeFirst()
      )?.id,

    /** The conversation's newest message that is not deleted, with its files' names (undefined: none). */
    newestShownChat: async (executor: Executor, conversationId: number) => {
      const chat = await executor
        .selectFrom('chats')
        .select(['id', 'message'])
        .where('messenger_user_id', '=', conversationId)
        .where('deleted_at', 'is', null)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (!chat) return undefined;
      const files = await executor
        .selectFrom('attachments')
        .select('name')
        .where('chat_id', '=', chat.id)
        .orderBy('id')
        .execute();
      return { message: chat.message, fileNames: files.map((file) => file.name) };
    },

    /** The conversation list's preview (its time and activity stay as they are). */
    setPreview: async (executor: Executor, conversationId: number, preview: string | null) => {
      await executor
        .updateTable('messenger_users')
        .set({ last_message: preview })
        .where('id', '=', conversationId)
        .execute();
    },

    /** One unread message fewer for `side` (never below 0). */
    lowerUnread: async (executor: Executor, conversationId: number, side: Side) => {
      await executor
        .updateTable('messenger_users')
        .set((eb) => ({
          [side.unread]: eb
            .case()
            .when(side.unread, '>', 0)
            .then(eb(side.unread, '-', 1))
            .else(0)
            .end(),
        }))
        .where('id', '=', conversationId)
        .execute();
    },

    /** Outbox tasks, written in the caller's transaction. */
    writeTasks: (executor: Executor, tasks: readonly NewOutboxTask[], now: string) =>
      writeTasks(executor, tasks, now),

    setArchive: (executor: Executor, conversationId: number, side: Side, archived: boolean) =>
      executor
        .updateTable('messenger_users')
        .set({ [side.archive]: archived ? 1 : 0 })
        .where('id', '=', conversationId)
        .execute(),
  };
};

/** The columns a send writes in its message's row. */
type NewChatColumn =
  | 'id'
  | 'messenger_user_id'
  | 'sender_id'
  | 'receiver_id'
  | 'job_id'
  | 'message'
  | 'client_id'
  | 'created_at';

/** A send to store: who writes what to whom, and the rules it must pass on the rows as read. */
export interface SendToStore {
  conversationId: number;
  senderId: number;
  senderName: string;
  receiverId: number;
  receiverSide: Side;
  jobId: number | null;
  message: string;
  clientId: string | null;
  attachmentIds: readonly number[];
  /** Each throws the error the send answers with when the rows read do not allow it. */
  check: {
    conversation(row: ConversationRow | undefined): asserts row is ConversationRow;
    /** How many of the files asked for were the sender's own and not yet sent. */
    files(claimed: number): void;
  };
  /** The conversation list's preview of the message, given the names of its files. */
  preview: (fileNames: readonly string[]) => string;
  /** The durable work the new message brings (outbox tasks), written in its own commit. */
  tasksFor: (
    chat: ChatRowWithSender,
    files: readonly AttachmentRow[],
    conversation: ConversationRow,
  ) => readonly NewOutboxTask[];
}

export interface StoredSend {
  chat: ChatRowWithSender;
  files: readonly AttachmentRow[];
  /** The conversation as the send left it. */
  conversation: ConversationRow;
}

/** The conversation's columns a send changes, as it leaves them. */
interface RecordedSend {
  last_message: string | null;
  last_message_at: string | null;
  candidate_unread: number;
  company_unread: number;
  candidate_archive: number;
  company_archive: number;
}

export type MessengerRepository = ReturnType<typeof createMessengerRepository>;
