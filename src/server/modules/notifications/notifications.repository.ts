import type { DialectName, Executor } from '../../db/database.js';

/** The message columns a notification needs (the `Chat` shape, plus the sender's name). */
const CHAT_COLUMNS = [
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
] as const;

/** All SQL of notification e-mails and webhooks (docs/notifications.md). */
export const createNotificationsRepository = (dialect: DialectName) => ({
  /**
   * The receiver as the rule needs them, with their notification row locked until the caller's
   * transaction ends (PostgreSQL: `FOR UPDATE`; SQLite: one writer at a time), so that two
   * instances deciding for one receiver take turns. Undefined: no such user.
   */
  lockRecipient: async (trx: Executor, userId: number) => {
    const user = await trx
      .selectFrom('users')
      .select(['id', 'external_id', 'erased_at'])
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!user) return undefined;
    await trx
      .insertInto('notification_recipients')
      .values({
        user_id: userId,
        last_notified_at: null,
        last_emailed_at: null,
        last_email_key: null,
      })
      .onConflict((conflict) => conflict.column('user_id').doNothing())
      .execute();
    const state = await trx
      .selectFrom('notification_recipients')
      .select(['last_notified_at', 'last_emailed_at', 'last_email_key'])
      .where('user_id', '=', userId)
      .$if(dialect === 'postgres', (query) => query.forUpdate())
      .executeTakeFirstOrThrow();
    return { ...user, ...state };
  },

  /** The receiver's messages unseen and not yet taken by the rule, sent at or before `cutoff`, oldest first. */
  dueMessages: (trx: Executor, receiverId: number, cutoff: string, limit: number) =>
    trx
      .selectFrom('chats as c')
      .innerJoin('users as s', 's.id', 'c.sender_id')
      .select(CHAT_COLUMNS)
      .where('c.receiver_id', '=', receiverId)
      .where('c.seen_at', 'is', null)
      .where('c.notified_at', 'is', null)
      .where('c.created_at', '<=', cutoff)
      .orderBy('c.id')
      .limit(limit)
      .execute(),

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
    await trx
      .updateTable('notification_recipients')
      .set({ last_notified_at: now, ...(emailKey ? { last_email_key: emailKey } : {}) })
      .where('user_id', '=', receiverId)
      .execute();
  },

  /** The receiver's e-mail went out now: the minimum interval runs from here. */
  recordEmailSent: async (executor: Executor, receiverId: number, now: string) => {
    await executor
      .updateTable('notification_recipients')
      .set({ last_emailed_at: now })
      .where('user_id', '=', receiverId)
      .execute();
  },

  /** Where and how to write to a user, with their e-mail switch (on unless turned off). */
  findEmailRecipient: (executor: Executor, userId: number) =>
    executor
      .selectFrom('users as u')
      .leftJoin('user_settings as st', 'st.user_id', 'u.id')
      .select(['u.id', 'u.name', 'u.email', 'u.locale', 'u.erased_at', 'st.email_notifications'])
      .where('u.id', '=', userId)
      .executeTakeFirst(),

  /** These messages as they are now (those seen since are left out), oldest first. */
  unseenMessages: (executor: Executor, chatIds: number[]) =>
    chatIds.length === 0
      ? Promise.resolve([])
      : executor
          .selectFrom('chats as c')
          .innerJoin('users as s', 's.id', 'c.sender_id')
          .select(CHAT_COLUMNS)
          .where('c.id', 'in', chatIds)
          .where('c.seen_at', 'is', null)
          .orderBy('c.id')
          .execute(),

  /** Whether the user exists (an unsubscribe link of an unknown user is refused). */
  findUserLocale: (executor: Executor, userId: number) =>
    executor
      .selectFrom('users')
      .select(['id', 'locale', 'erased_at'])
      .where('id', '=', userId)
      .executeTakeFirst(),
});

export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;
