import { sql, type Kysely, type Transaction } from 'kysely';
import { prepareQuery, type Db, type Executor } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { WriteBatcher } from '../../db/write-batcher.js';
import {
  createTaskWriter,
  insertTasks,
  type NewOutboxTask,
} from '../../outbox/outbox.repository.js';
import { searchDocument } from '../../../shared/search-text.js';
import { createSqliteTermWriter, searchVectorOf } from '../../db/search-index.js';
import type { AttachmentRow } from '../../read-model/chat.presenter.js';
import {
  attachmentsOfChats,
  chatQuery,
  type ChatRowWithSender,
} from '../../read-model/chat.repository.js';
import {
  conversationQuery,
  first,
  only,
  perSide,
  prepareFindConversation,
  type Side,
} from './conversation-query.repository.js';

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
 * The queries of a send are prepared once (see prepareQuery): same SQL as building them per call,
 * without rebuilding and recompiling it every time.
 */
const preparedQueries = (db: Kysely<Database>) => ({
  findConversation: prepareFindConversation(db),
  // PostgreSQL only (see findConversationForSend).
  findConversationForSend: prepareQuery(1, (id: number) =>
    conversationQuery(db)
      .select(sql<number>`nextval('chats_id_seq')::integer`.as('next_chat_id'))
      .where('mu.id', '=', id),
  ),
  findChatByClientId: prepareQuery(2, (senderId: number, clientId: string) =>
    chatQuery(db).where('c.sender_id', '=', senderId).where('c.client_id', '=', clientId),
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
 * A send's SQL, step by step: the sending service runs the steps in order, in the one transaction
 * (or, on PostgreSQL without files, the one statement) it opens through this repository, and
 * decides everything in between. Built once per database, with the module's write batcher (on
 * SQLite sends share commits with the message changes).
 */
export const createSendRepository = ({ kysely: db, dialect }: Db, writes: WriteBatcher) => {
  const q = preparedQueries(db);
  const writeTasks = createTaskWriter(db);
  const terms = createSqliteTermWriter(db);

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
    // Each party's check is one primary-key lookup: asked as one `id in (…) or …` filter, PostgreSQL
    // filtered the users table for it (a sequential scan on the benchmark's 1,000 users), about a
    // quarter of its CPU per send (docs/performance.md, issue 42).
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
          where id = ${chat.sender_id}::integer and (erased_at is not null or suspended_at is not null)
        )
        and not exists (
          select 1 from users where id = ${chat.receiver_id}::integer and erased_at is not null
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

  return {
    /**
     * Whether a send of this many files is written at once: PostgreSQL without files, one read
     * (`findConversationForSend`) then one statement (`writeSendAtOnce`), no transaction; otherwise
     * the steps below in one transaction (`inWriteTransaction`; on SQLite, sharing its commit).
     */
    writesAtOnce: (fileCount: number): boolean => dialect === 'postgres' && fileCount === 0,

    /** PostgreSQL: the conversation as `findConversation` reads it, and the next message id. */
    findConversationForSend: async (executor: Executor, id: number) =>
      first(await q.findConversationForSend(executor, id)),

    /** PostgreSQL: every write of a send in one statement (see above). */
    writeSendAtOnce,

    /** Runs `work` in a transaction of frequent small writes (on SQLite, sharing its commit). */
    inWriteTransaction: <T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> =>
      terms.inTransaction((opened) =>
        writes.run((trx) => {
          opened(trx);
          return work(trx);
        }),
      ),

    /** The conversation the send goes to, as the transaction reads it. */
    findConversation: async (executor: Executor, id: number) =>
      first(await q.findConversation(executor, id)),

    /** The new message's row, with its words in the search index (same commit); its id. */
    insertChat: async (
      executor: Executor,
      chat: Omit<Pick<ChatRowWithSender, NewChatColumn>, 'id'>,
    ): Promise<number> => {
      const document = searchDocument(chat.message);
      const row = [
        chat.messenger_user_id,
        chat.sender_id,
        chat.receiver_id,
        chat.job_id,
        chat.message,
        chat.client_id,
        chat.created_at,
        null,
      ] as const;
      const { id } = only(
        dialect === 'postgres'
          ? await q.insertChatIndexed(executor, document, ...row)
          : await q.insertChat(executor, ...row),
      );
      if (dialect === 'sqlite' && document !== '') {
        await q.indexChat(executor, id, document);
        await terms.add(executor, document);
      }
      return id;
    },

    claimAttachments,

    /**
     * The conversation's preview, time, receiver's unread count and archive flags, as this send
     * leaves them (the row stays locked until commit).
     */
    recordSend: async (
      executor: Executor,
      receiverSide: Side,
      conversationId: number,
      preview: string,
      at: string,
    ): Promise<RecordedSend> =>
      only(await q.recordSend(receiverSide)(executor, conversationId, preview, at)),

    /** Outbox tasks, written in the caller's transaction. */
    writeTasks: (executor: Executor, tasks: readonly NewOutboxTask[], now: string) =>
      writeTasks(executor, tasks, now),

    /** A replay: the message the sender stored before under this client_id. */
    findChatByClientId: async (executor: Executor, senderId: number, clientId: string) =>
      first(await q.findChatByClientId(executor, senderId, clientId)),

    /** The attachments of these messages, oldest first. */
    attachmentsOfChats,
  };
};

/** The columns a send writes in its message's row. */
export type NewChatColumn =
  | 'id'
  | 'messenger_user_id'
  | 'sender_id'
  | 'receiver_id'
  | 'job_id'
  | 'message'
  | 'client_id'
  | 'created_at';

/** The conversation's columns a send changes, as it leaves them. */
export interface RecordedSend {
  last_message: string | null;
  last_message_at: string | null;
  candidate_unread: number;
  company_unread: number;
  candidate_archive: number;
  company_archive: number;
}

export type SendRepository = ReturnType<typeof createSendRepository>;
