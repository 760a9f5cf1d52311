import type { Locale } from '../../../shared/integration.js';
import type { Db } from '../../db/database.js';
import type { Outbox } from '../../outbox/outbox.js';
import type { AttachmentRow } from '../../read-model/chat.presenter.js';
import { ONLINE_RECHECK_MS } from './email-rule.js';
import type { Mailer } from './mailer.js';
import { renderNotificationEmail } from './notification-email.js';
import { TASK, type EmailTask } from './notification-tasks.js';
import type { NotificationsRepository } from './notifications.repository.js';
import type { UnsubscribeTokens } from './unsubscribe-token.js';

export interface NotificationsLogger {
  warn: (details: object, message: string) => void;
}

/**
 * An e-mail waits for a receiver who is online at most this long: a page left open in a background
 * tab is not someone reading (what they read meanwhile is left out, and nothing read: no e-mail).
 */
export const ONLINE_POSTPONE_MAX_MS = 30 * 60_000;

/** An SMTP answer that will not change on a retry (the address does not exist, …); not a login failure. */
const isPermanentSmtpRefusal = (error: unknown): boolean => {
  const { responseCode, code } = error as { responseCode?: unknown; code?: unknown };
  return (
    typeof responseCode === 'number' &&
    responseCode >= 500 &&
    responseCode < 600 &&
    code !== 'EAUTH'
  );
};

/** A message as an e-mail shows it: its text, then its files by name. */
const withFileNames = <T extends { id: number; message: string }>(
  chat: T,
  files: readonly AttachmentRow[],
): T => {
  const names = files.filter((file) => file.chat_id === chat.id).map((file) => file.name);
  if (names.length === 0) return chat;
  const line = `📎 ${names.join(', ')}`;
  return { ...chat, message: chat.message ? `${chat.message}\n${line}` : line };
};

export interface EmailSendingOptions {
  db: Db;
  repository: NotificationsRepository;
  outbox: Outbox;
  mailer: Mailer;
  publicUrl: URL;
  siteName?: string | undefined;
  logoUrl?: string | undefined;
  brandColor?: string | undefined;
  logger: NotificationsLogger;
  /** Whether the receiver is on the page now (presence). */
  isOnline: (userId: number) => Promise<boolean>;
  /** The unsubscribe links' tokens (made once their key is read). */
  unsubscribeTokens: () => Promise<UnsubscribeTokens>;
}

/** Sends one batch's e-mail, leaving out what was seen (or switched off) since it was decided. */
export const createEmailSending = (options: EmailSendingOptions) => {
  const { db, repository, outbox, mailer, publicUrl, isOnline, unsubscribeTokens } = options;

  return async (
    { receiverId, chatIds, decidedAt, step = 0 }: EmailTask,
    taskKey: string,
    signal: AbortSignal,
  ): Promise<void> => {
    const recipient = await repository.findEmailRecipient(db.kysely, receiverId);
    if (!recipient?.email || recipient.erased_at !== null || recipient.email_notifications === 0)
      return;
    // Only the receiver's current e-mail task sends: a task run twice (at least once delivery)
    // that already handed its e-mail on to a postponed one stops here.
    const current = await repository.lastEmailKey(db.kysely, receiverId);
    if (current !== undefined && current !== null && current !== taskKey) return;
    const unseen = await repository.unseenMessages(db.kysely, chatIds);
    if (unseen.length === 0) return;
    // Still on the page (and not for too long): wait as a new task, which the rule waits for.
    const now = outbox.now().getTime();
    if (
      decidedAt !== undefined &&
      now - Date.parse(decidedAt) < ONLINE_POSTPONE_MAX_MS &&
      (await isOnline(receiverId))
    ) {
      const runAt = new Date(now + ONLINE_RECHECK_MS).toISOString();
      const stillUnseen = unseen.map((chat) => chat.id);
      // named after this task (not the moment): a second run of this task makes no second chain
      const laterKey = `${taskKey.replace(/:later:\d+$/, '')}:later:${step + 1}`;
      await db.kysely.transaction().execute(async (trx) => {
        await outbox.enqueue(trx, {
          kind: TASK.email,
          dedupeKey: laterKey,
          payload: { receiverId, chatIds: stillUnseen, decidedAt, step: step + 1 },
          runAt,
        });
        await repository.recordEmailKey(trx, receiverId, laterKey);
      });
      return;
    }
    // files are named in the e-mail (a message may be files only)
    const files = await repository.attachmentsOfChats(
      db.kysely,
      unseen.map((chat) => chat.id),
    );
    const messages = unseen.map((chat) => withFileNames(chat, files));
    const locale: Locale = recipient.locale === 'ar' ? 'ar' : 'en';
    const token = (await unsubscribeTokens()).tokenFor(receiverId);
    const unsubscribeUrl = new URL('/unsubscribe', publicUrl);
    unsubscribeUrl.searchParams.set('token', token);
    const email = renderNotificationEmail({
      locale,
      timeZone: recipient.time_zone ?? 'UTC',
      siteName: options.siteName,
      logoUrl: options.logoUrl,
      brandColor: options.brandColor,
      recipientName: recipient.name,
      messages,
      publicUrl,
      unsubscribeUrl: unsubscribeUrl.toString(),
    });
    try {
      await mailer.send(
        {
          to: recipient.email,
          ...email,
          messageId: `<notify.${receiverId}.${chatIds[chatIds.length - 1]}@${publicUrl.hostname}>`,
          headers: {
            'List-Unsubscribe': `<${unsubscribeUrl.toString()}>`,
            'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
            'Auto-Submitted': 'auto-generated',
            'Content-Language': locale,
          },
        },
        signal,
      );
    } catch (error) {
      if (!isPermanentSmtpRefusal(error)) throw error;
      options.logger.warn({ err: error, receiverId }, 'mail: refused for good, not retried');
      return;
    }
    // Sent: a failure to note it must not send it again (the interval then runs from the batch).
    await repository
      .recordEmailSent(db.kysely, receiverId, outbox.now().toISOString())
      .catch((error: unknown) =>
        options.logger.warn({ err: error, receiverId }, 'mail: sent, but not noted'),
      );
  };
};
