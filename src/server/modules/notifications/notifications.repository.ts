import type { Kysely } from 'kysely';
import { prepareQuery, type Db, type DialectName, type Executor } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { attachmentsOfChats, chatQuery, hostChatQuery } from '../../read-model/chat.repository.js';

/**
 * The queries of the rule and the e-mail, built and compiled once (see prepareQuery): the same
 * SQL as building them per call.
 */
const preparedQueries = (db: Kysely<Database>, dialect: DialectName) => ({
  recipientUser: prepareQuery(1, (userId: number) =>
    db.selectFrom('users').select(['id', 'external_id', 'erased_at']).where('id', '=', userId),
  ),
  ensureRecipientRow: prepareQuery(1, (userId: number) =>
    db
      .insertInto('notification_recipients')
      .values({
        user_id: userId,
        last_notified_at: null,
        last_emailed_at: null,
        last_email_key: null,
      })
      .onConflict((conflict) => conflict.column('user_id').doNothing()),
  ),
  recipientState: prepareQuery(1, (userId: number) =>
    db
      .selectFrom('notification_recipients')
      .select(['last_notified_at', 'last_emailed_at', 'last_email_key'])
      .where('user_id', '=', userId)
      .$if(dialect === 'postgres', (query) => query.forUpdate()),
  ),
  // with the host's ids: the batch's `message.unseen` is built from this read
  dueMessages: prepareQuery(3, (receiverId: number, cutoff: string, limit: number) =>
    hostChatQuery(db)
      .where('c.receiver_id', '=', receiverId)
      .where('c.seen_at', 'is', null)
      .where('c.notified_at', 'is', null)
      // a deleted message is nobody's unread news
      .where('c.deleted_at', 'is', null)
      .where('c.created_at', '<=', cutoff)
      .orderBy('c.id')
      .limit(limit),
  ),
  recordNotified: prepareQuery(2, (receiverId: number, now: string) =>
    db
      .updateTable('notification_recipients')
      .set({ last_notified_at: now })
      .where('user_id', '=', receiverId),
  ),
  recordNotifiedWithEmail: prepareQuery(3, (receiverId: number, now: string, emailKey: string) =>
    db
      .updateTable('notification_recipients')
      .set({ last_notified_at: now, last_email_key: emailKey })
      .where('user_id', '=', receiverId),
  ),
  recordEmailSent: prepareQuery(2, (receiverId: number, now: string) =>
    db
      .updateTable('notification_recipients')
      .set({ last_emailed_at: now })
      .where('user_id', '=', receiverId),
  ),
  findEmailRecipient: prepareQuery(1, (userId: number) =>
    db
      .selectFrom('users as u')
      .leftJoin('user_settings as st', 'st.user_id', 'u.id')
      .select((eb) => [
        'u.id',
        'u.name',
        'u.email',
        // the language the user picked on the page, else the host's
        eb.fn.coalesce('st.locale', 'u.locale').as('locale'),
        'st.time_zone',
        'u.erased_at',
        'st.email_notifications',
      ])
      .where('u.id', '=', userId),
  ),
});

/**
 * All SQL of notification e-mails and webhooks (docs/notifications.md). Built once per database
 * (its prepared queries are compiled for that database's dialect).
 */
export const createNotificationsRepository = ({ kysely: db, dialect }: Db) => {
  const q = preparedQueries(db, dialect);
  return {
    /** The files of these messages (the shared chat read-model's query). */
    attachmentsOfChats,
    /**
     * The receiver as the rule needs them, with their notification row locked until the caller's
     * transaction ends (PostgreSQL: `FOR UPDATE`; SQLite: one writer at a time), so that two
     * instances deciding for one receiver take turns. Undefined: no such user.
     */
    lockRecipient: async (trx: Executor, userId: number) => {
      const [user] = await q.recipientUser(trx, userId);
      if (!user) return undefined;
      await q.ensureRecipientRow(trx, userId);
      const [state] = await q.recipientState(trx, userId);
      if (!state) throw new Error('The notification row of the receiver is missing.');
      return { ...user, ...state };
    },

    /** The receiver's messages unseen and not yet taken by the rule, sent at or before `cutoff`, oldest first. */
    dueMessages: (trx: Executor, receiverId: number, cutoff: string, limit: number) =>
      q.dueMessages(trx, receiverId, cutoff, limit),

    /** The rule took these messages for the receiver now. */
    markNotified: async (
      trx: Executor,
      receiverId: number,
      chatIds: number[],
      now: string,
      emailKey: string | null,
    ) => {
      await trx
        .updateTable('chats')
        .set({ notified_at: now })
        .where('id', 'in', chatIds)
        .where('notified_at', 'is', null)
        .execute();
      await (emailKey
        ? q.recordNotifiedWithEmail(trx, receiverId, now, emailKey)
        : q.recordNotified(trx, receiverId, now));
    },

    /** The receiver's e-mail waits as another task (postponed while they are online). */
    recordEmailKey: async (executor: Executor, receiverId: number, emailKey: string) => {
      await executor
        .updateTable('notification_recipients')
        .set({ last_email_key: emailKey })
        .where('user_id', '=', receiverId)
        .execute();
    },

    /** The task of the receiver's last e-mail (undefined: none yet). */
    lastEmailKey: async (executor: Executor, receiverId: number) =>
      (
        await executor
          .selectFrom('notification_recipients')
          .select('last_email_key')
          .where('user_id', '=', receiverId)
          .executeTakeFirst()
      )?.last_email_key ?? undefined,

    /** The receiver's e-mail went out now: the minimum interval runs from here. */
    recordEmailSent: async (executor: Executor, receiverId: number, now: string) => {
      await q.recordEmailSent(executor, receiverId, now);
    },

    /** Where and how to write to a user, with their e-mail switch (on unless turned off). */
    findEmailRecipient: async (executor: Executor, userId: number) =>
      (await q.findEmailRecipient(executor, userId))[0],

    /**
     * These messages as they are now (their latest text; those seen or deleted since are left out), oldest first, with the
     * title of the job their conversation is about (null: none).
     */
    unseenMessages: (executor: Executor, chatIds: number[]) =>
      chatIds.length === 0
        ? Promise.resolve([])
        : chatQuery(executor)
            .leftJoin('messenger_users as mu', 'mu.id', 'c.messenger_user_id')
            .leftJoin('jobs as j', 'j.id', 'mu.job_id')
            .select('j.title as job_title')
            .where('c.id', 'in', chatIds)
            .where('c.seen_at', 'is', null)
            .where('c.deleted_at', 'is', null)
            .orderBy('c.id')
            .execute(),

    /** Whether the user exists (an unsubscribe link of an unknown user is refused). */
    findUserLocale: (executor: Executor, userId: number) =>
      executor
        .selectFrom('users as u')
        .leftJoin('user_settings as st', 'st.user_id', 'u.id')
        .select((eb) => [
          'u.id',
          eb.fn.coalesce('st.locale', 'u.locale').as('locale'),
          'u.erased_at',
        ])
        .where('u.id', '=', userId)
        .executeTakeFirst(),
  };
};

export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;
