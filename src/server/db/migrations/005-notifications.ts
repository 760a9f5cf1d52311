import { sql, type Kysely } from 'kysely';

/**
 * Notification e-mails (docs/notifications.md): each message remembers when the e-mail rule took
 * it (`notified_at`), and each receiver when the rule last fired for them (the minimum interval).
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.alterTable('chats').addColumn('notified_at', 'text').execute();
  // Messages already unread when notifications arrived are not e-mailed all at once with the next
  // new one: they count as handled.
  const now = new Date().toISOString();
  await sql`update chats set notified_at = ${now} where seen_at is null`.execute(db);
  // The rule's question: "this receiver's unseen messages not yet taken", in id order.
  await db.schema
    .createIndex('chats_notify_pending_idx')
    .on('chats')
    .columns(['receiver_id', 'id'])
    .where(sql<boolean>`seen_at is null and notified_at is null`)
    .execute();

  // Finished outbox tasks are deleted after a retention period, oldest first.
  await db.schema
    .createIndex('outbox_done_idx')
    .on('outbox')
    .column('done_at')
    .where(sql<boolean>`done_at is not null`)
    .execute();

  await db.schema
    .createTable('notification_recipients')
    .addColumn('user_id', 'integer', (col) =>
      col.primaryKey().references('users.id').onDelete('cascade'),
    )
    .addColumn('last_notified_at', 'text')
    .addColumn('last_emailed_at', 'text')
    .addColumn('last_email_key', 'text')
    .execute();
};
