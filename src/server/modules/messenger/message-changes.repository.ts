import type { Kysely, Transaction } from 'kysely';
import { prepareQuery, type Db, type Executor } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { indexMessage, unindexMessage } from '../../db/search-index.js';
import type { WriteBatcher } from '../../db/write-batcher.js';
import { createTaskWriter, type NewOutboxTask } from '../../outbox/outbox.repository.js';
import {
  attachmentsOfChats,
  chatQuery,
  type ChatRowWithSender,
} from '../../read-model/chat.repository.js';
import {
  first,
  perSide,
  prepareFindConversation,
  type ConversationRow,
  type Side,
} from './conversation-query.repository.js';

/** The queries of a mark seen, prepared once (see prepareQuery). */
const preparedQueries = (db: Kysely<Database>) => ({
  findConversation: prepareFindConversation(db),
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
});

/**
 * The writes that change messages already sent: marks seen, the sender's edits and deletes (with
 * the search index, the list's preview, the unread count and their outbox tasks). Built once per
 * database, with the module's write batcher (on SQLite these share commits with the sends).
 */
export const createMessageChangesRepository = (
  { kysely: db, dialect }: Db,
  writes: WriteBatcher,
) => {
  const q = preparedQueries(db);
  const writeTasks = createTaskWriter(db);

  return {
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

    /** The conversation as the change leaves it, read in the change's transaction. */
    findConversation: async (executor: Executor, id: number) =>
      first(await q.findConversation(executor, id)),

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
  };
};

export type MessageChangesRepository = ReturnType<typeof createMessageChangesRepository>;
