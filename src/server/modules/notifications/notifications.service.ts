import type { HostChat } from '../../../shared/models.js';
import type { Locale } from '../../../shared/integration.js';
import type { ReportCreatedWebhookData } from '../../../shared/safety.js';
import { z } from 'zod';
import type { Db, Executor } from '../../db/database.js';
import type { NewOutboxTask, Outbox } from '../../outbox/outbox.js';
import type { OutboxWorker } from '../../outbox/outbox-worker.js';
import {
  chatHostIdsOf,
  presentHostChat,
  type AttachmentRow,
  type ConversationHostIds,
} from '../../read-model/chat.presenter.js';
import type { ChatRowWithSender } from '../../read-model/chat.repository.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { Mailer } from './mailer.js';
import { renderNotificationEmail } from './notification-email.js';
import type { NotificationsRepository } from './notifications.repository.js';
import { createUnsubscribeTokens, type UnsubscribeTokens } from './unsubscribe-token.js';
import {
  newWebhookId,
  WEBHOOK_TIMEOUT_MS,
  WEBHOOK_TYPES,
  type WebhookEvent,
  type WebhookSender,
} from './webhook-sender.js';

/** Outbox task kinds (ADR 013). */
export const TASK = {
  /** A message may have become due: apply the e-mail rule to its receiver. */
  due: 'notify.due',
  /** Send one notification e-mail. */
  email: 'notify.email',
  /** Post one event to the host's webhook. */
  webhook: 'webhook',
} as const;

/**
 * Messages sent in a burst are e-mailed together: the rule waits for the burst's last message to
 * be due as well, if it was sent within this window after the first (a fifth of the delay, at most
 * a minute: 60 s with the default 300 s). No message is e-mailed before it is due.
 */
export const gatheringWindowMs = (emailDelayMs: number): number =>
  Math.min(60_000, Math.floor(emailDelayMs / 5));

/** A handler's time limit: what it needs, but at most half the outbox lease (ADR 013). */
const handlerTimeoutMs = (wanted: number, leaseMs: number): number =>
  Math.min(wanted, Math.floor(leaseMs / 2));

/** How long one e-mail attempt may take (the mailer keeps SMTP's own limits within it). */
export const emailAttemptTimeoutMs = (leaseMs: number): number => handlerTimeoutMs(60_000, leaseMs);

/**
 * While a batch's e-mail waits for SMTP, the rule looks again after the minimum interval (at
 * least this long, for deployments without one).
 */
const PENDING_EMAIL_RECHECK_MS = 1000;

/** At most this many messages are taken in one batch; the rest wait for the next one. */
export const MAX_BATCH_MESSAGES = 1000;

/** E-mails are retried for at least a day, webhooks for at least an hour. */
const EMAIL_RETRY_MS = 24 * 3600_000;
const EMAIL_MIN_ATTEMPTS = 10;
const WEBHOOK_RETRY_MS = 3600_000;
const WEBHOOK_MIN_ATTEMPTS = 8;

const dueTaskSchema = z.object({ receiverId: z.number().int().positive() });
const emailTaskSchema = z.object({
  receiverId: z.number().int().positive(),
  chatIds: z.array(z.number().int().positive()).min(1),
  /** When the rule took the batch (postponement while online counts from here). */
  decidedAt: z.string().optional(),
  /** How many times it waited for the receiver to leave the page (names the next task). */
  step: z.number().int().min(0).optional(),
});
const webhookTaskSchema = z.object({
  id: z.string().min(1),
  type: z.enum(WEBHOOK_TYPES),
  timestamp: z.string(),
  data: z.unknown(),
});

export interface NotificationsLogger {
  warn: (details: object, message: string) => void;
}

export interface NotificationsServiceOptions {
  db: Db;
  repository: NotificationsRepository;
  outbox: Outbox;
  settingsService: SettingsService;
  mailer: Mailer;
  /** Undefined: no webhooks (WEBHOOK_URL unset). */
  webhook: WebhookSender | undefined;
  /** The unsubscribe links' key (kept in the database; read when first needed). */
  unsubscribeSecret: () => Promise<string>;
  publicUrl: URL;
  /** `SITE_NAME`: before each e-mail's subject, in its header and footer (undefined: nothing). */
  siteName?: string | undefined;
  /** `BRAND_LOGO_URL` and `BRAND_COLOR`: the HTML part's header and button. */
  logoUrl?: string | undefined;
  brandColor?: string | undefined;
  /** False (NOTIFICATIONS=off): no e-mail rule at all. */
  enabled: boolean;
  emailDelayMs: number;
  emailMinIntervalMs: number;
  /** The outbox lease: handlers must finish well within it. */
  leaseMs: number;
  logger: NotificationsLogger;
  /**
   * Who is on the page now (presence): a receiver's e-mail waits until they leave (and is never
   * sent for what they read meanwhile). Unset: nobody is.
   */
  presence?: { onlineAmong(ids: readonly number[]): Promise<ReadonlySet<number>> };
}

/** While the receiver is online, their due e-mail is looked at again this often (and when they go offline). */
export const ONLINE_RECHECK_MS = 60_000;

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

/**
 * Reaching people who are not on the page (docs/notifications.md): the e-mail
 * rule, notification e-mails and webhooks. Every piece of work goes through the durable outbox,
 * enqueued in the transaction that decided it.
 */
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

export const createNotificationsService = (options: NotificationsServiceOptions) => {
  const { db, repository, outbox, mailer, webhook, publicUrl } = options;
  const gatherMs = gatheringWindowMs(options.emailDelayMs);
  const isOnline = async (userId: number): Promise<boolean> =>
    (await options.presence?.onlineAmong([userId]))?.has(userId) ?? false;
  let tokens: Promise<UnsubscribeTokens> | undefined;
  const unsubscribeTokens = () => {
    tokens ??= options.unsubscribeSecret().then(createUnsubscribeTokens, (error: unknown) => {
      tokens = undefined;
      throw error;
    });
    return tokens;
  };

  /** The existing user an unsubscribe token was made for. */
  const tokenUser = async (token: string) =>
    existingUser((await unsubscribeTokens()).userIdOf(token));
  const existingUser = async (userId: number | undefined) => {
    if (userId === undefined) return undefined;
    const user = await repository.findUserLocale(db.kysely, userId);
    if (!user) return undefined;
    const locale: Locale = user.locale === 'ar' ? 'ar' : 'en';
    return { id: userId, locale, erased: user.erased_at !== null };
  };

  const webhookTask = (dedupeKey: string, event: Omit<WebhookEvent, 'id'>): NewOutboxTask => ({
    kind: TASK.webhook,
    dedupeKey,
    payload: { id: newWebhookId(), ...event },
    runAt: event.timestamp,
  });
  const enqueueWebhook = (
    executor: Executor,
    dedupeKey: string,
    event: Omit<WebhookEvent, 'id'>,
  ) => (webhook ? outbox.enqueue(executor, webhookTask(dedupeKey, event)) : Promise.resolve(false));

  /**
   * The e-mail rule for one receiver, in one transaction that holds their notification row: the
   * messages unseen and due (sent at least the delay ago) and not taken before become one batch,
   * unless the last batch is more recent than the minimum interval (then it waits until then).
   * A batch is one e-mail (when they have an address and e-mails on) and one `message.unseen`.
   */
  const applyEmailRule = async (receiverId: number): Promise<void> => {
    // Asked before the transaction, not inside it: presence may be another thread's answer (the
    // background thread asks the request thread), and on SQLite the transaction holds the database's
    // write lock, which the request thread would wait for while it is asked.
    const online = await isOnline(receiverId);
    await db.kysely.transaction().execute(async (trx) => {
      const recipient = await repository.lockRecipient(trx, receiverId);
      if (!recipient || recipient.erased_at !== null) return;
      const now = outbox.now();
      const cutoff = new Date(now.getTime() - options.emailDelayMs).toISOString();
      // The due messages, and those that become due within the gathering window.
      const pending = await repository.dueMessages(
        trx,
        receiverId,
        new Date(now.getTime() - options.emailDelayMs + gatherMs).toISOString(),
        MAX_BATCH_MESSAGES,
      );
      const due = pending.filter((chat) => chat.created_at <= cutoff);
      const oldest = due[0];
      if (!oldest) return;
      const retryAt = async (moment: number): Promise<void> => {
        const runAt = new Date(moment).toISOString();
        // Re-armed if a task for that moment already ran (another instance's clock was ahead).
        await outbox.enqueue(
          trx,
          {
            kind: TASK.due,
            dedupeKey: `${TASK.due}:${receiverId}:at:${runAt}`,
            payload: { receiverId },
            runAt,
          },
          { rearm: true },
        );
      };
      // The interval runs from the last batch, or from when its e-mail went out if that was later.
      const last = Math.max(
        recipient.last_notified_at ? Date.parse(recipient.last_notified_at) : 0,
        recipient.last_emailed_at ? Date.parse(recipient.last_emailed_at) : 0,
      );
      const nextAllowed = last ? last + options.emailMinIntervalMs : 0;
      // Too soon after the last batch: decide again when it is allowed (one task per moment).
      if (nextAllowed > now.getTime()) return retryAt(nextAllowed);
      // The last batch's e-mail has not gone out yet (SMTP down): no second one beside it; look
      // again later (e-mails are not queued up to arrive together when SMTP is back).
      if (recipient.last_email_key) {
        const previous = await outbox.findByDedupeKey(recipient.last_email_key, trx);
        if (previous && previous.done_at === null)
          return retryAt(
            Math.max(
              // postponed while the receiver is online: not before it is looked at again
              Date.parse(previous.run_at),
              now.getTime() + Math.max(options.emailMinIntervalMs, PENDING_EMAIL_RECHECK_MS),
            ),
          );
      }
      // A burst (several messages within moments) goes out as one e-mail: wait for its last
      // message to be due too, but never longer than the window after the first one was.
      const burstEnd = Date.parse(oldest.created_at) + gatherMs;
      const lastOfBurst = pending.findLast(
        (chat) => chat.created_at > cutoff && Date.parse(chat.created_at) <= burstEnd,
      );
      if (lastOfBurst) return retryAt(Date.parse(lastOfBurst.created_at) + options.emailDelayMs);
      const nowText = now.toISOString();
      const chatIds = due.map((chat) => chat.id);
      const lastId = chatIds[chatIds.length - 1] as number;
      const emailTo = await repository.findEmailRecipient(trx, receiverId);
      const emailKey =
        emailTo?.email && emailTo.email_notifications !== 0
          ? `${TASK.email}:${receiverId}:${lastId}`
          : null;
      await repository.markNotified(trx, receiverId, chatIds, nowText, emailKey);
      if (emailKey) {
        // On the page now: the e-mail waits (the host's webhook below does not).
        await outbox.enqueue(trx, {
          kind: TASK.email,
          dedupeKey: emailKey,
          payload: { receiverId, chatIds, decidedAt: nowText },
          runAt: online ? new Date(now.getTime() + ONLINE_RECHECK_MS).toISOString() : nowText,
        });
      }
      const dueFiles = webhook ? await repository.attachmentsOfChats(trx, chatIds) : [];
      await enqueueWebhook(trx, `webhook:message.unseen:${receiverId}:${lastId}`, {
        type: 'message.unseen',
        timestamp: nowText,
        data: {
          receiver_id: receiverId,
          receiver_external_id: recipient.external_id,
          messages: due.map((chat) =>
            presentHostChat(
              chat,
              dueFiles.filter((file) => file.chat_id === chat.id),
              chat,
            ),
          ),
        },
      });
    });
  };

  /** Sends one batch's e-mail, leaving out what was seen (or switched off) since it was decided. */
  const sendEmail = async (
    { receiverId, chatIds, decidedAt, step = 0 }: z.infer<typeof emailTaskSchema>,
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

  return {
    /**
     * The durable work of every new message, written by the send in its own commit: the
     * receiver's e-mail rule is due when the message has been unseen for the delay, and the host
     * hears of it at once.
     */
    outboxTasksFor: (
      chat: ChatRowWithSender,
      attachments: readonly AttachmentRow[],
      conversation: ConversationHostIds,
    ): NewOutboxTask[] => {
      const tasks: NewOutboxTask[] = [];
      if (options.enabled) {
        tasks.push({
          kind: TASK.due,
          dedupeKey: `${TASK.due}:chat:${chat.id}`,
          payload: { receiverId: chat.receiver_id },
          runAt: new Date(Date.parse(chat.created_at) + options.emailDelayMs).toISOString(),
        });
      }
      // The Chat shape is built only when there is a webhook to post it to (every send passes here).
      if (webhook) {
        const message: HostChat = presentHostChat(
          chat,
          attachments,
          chatHostIdsOf(chat, conversation),
        );
        tasks.push(
          webhookTask(`webhook:message.created:${chat.id}`, {
            type: 'message.created',
            timestamp: chat.created_at,
            data: { message, conversation_id: chat.messenger_user_id },
          }),
        );
      }
      return tasks;
    },

    /**
     * The durable work of an edit or a delete, written in its own commit: the host hears of it
     * (`message.updated` / `message.deleted`, `data` as for `message.created`: the message as it is
     * now). Each edit is its own event (keyed by when it was made). E-mails need nothing here: an
     * e-mail reads its messages when it goes out (the latest text; deleted ones left out).
     */
    outboxTasksForChange: (
      type: 'message.updated' | 'message.deleted',
      chat: ChatRowWithSender,
      attachments: readonly AttachmentRow[],
      conversation: ConversationHostIds,
    ): NewOutboxTask[] => {
      if (!webhook) return [];
      const at = (type === 'message.deleted' ? chat.deleted_at : chat.edited_at) ?? chat.created_at;
      return [
        webhookTask(`webhook:${type}:${chat.id}:${at}`, {
          type,
          timestamp: at,
          data: {
            message: presentHostChat(chat, attachments, chatHostIdsOf(chat, conversation)),
            conversation_id: chat.messenger_user_id,
          },
        }),
      ];
    },

    /**
     * The host hears of a new report (`report.created`): enqueued in the report's own transaction,
     * so the webhook exists exactly when the report does. Nothing without a webhook.
     */
    reportCreated: (executor: Executor, data: ReportCreatedWebhookData, at: string) =>
      enqueueWebhook(executor, `webhook:report.created:${data.report.id}`, {
        type: 'report.created',
        timestamp: at,
        data,
      }),

    /** The receiver left the page: an e-mail that waited while they were there goes now. */
    receiverWentOffline: async (receiverId: number): Promise<void> => {
      if (!options.enabled) return;
      const emailKey = await repository.lastEmailKey(db.kysely, receiverId);
      if (emailKey) await outbox.runNow(emailKey);
    },

    /** Gives the outbox worker this module's handlers. */
    registerHandlers: (worker: OutboxWorker): void => {
      worker.register<z.infer<typeof dueTaskSchema>>(
        TASK.due,
        ({ receiverId }) => applyEmailRule(receiverId),
        {
          parse: (payload) => dueTaskSchema.parse(payload),
          timeoutMs: handlerTimeoutMs(30_000, options.leaseMs),
        },
      );
      worker.register<z.infer<typeof emailTaskSchema>>(
        TASK.email,
        (payload, { task, signal }) => sendEmail(payload, task.dedupe_key, signal),
        {
          parse: (payload) => emailTaskSchema.parse(payload),
          maxAttempts: EMAIL_MIN_ATTEMPTS,
          minRetryMs: EMAIL_RETRY_MS,
          timeoutMs: emailAttemptTimeoutMs(options.leaseMs),
        },
      );
      // Without WEBHOOK_URL, webhook tasks left from an earlier configuration wait for it.
      if (!webhook) return;
      worker.register<WebhookEvent>(
        TASK.webhook,
        (event, { signal }) => webhook.deliver(event, signal),
        {
          parse: (payload) => webhookTaskSchema.parse(payload),
          maxAttempts: WEBHOOK_MIN_ATTEMPTS,
          minRetryMs: WEBHOOK_RETRY_MS,
          timeoutMs: handlerTimeoutMs(WEBHOOK_TIMEOUT_MS + 5_000, options.leaseMs),
          // A receiver that does not answer holds at most half the slots: e-mails keep going.
          concurrency: Math.max(1, Math.floor(worker.concurrency / 2)),
        },
      );
    },

    /** The user an unsubscribe token belongs to, with their language; undefined: not a valid link. */
    unsubscribeTarget: async (
      token: string,
    ): Promise<{ userId: number; locale: Locale } | undefined> => {
      const user = await tokenUser(token);
      return user && { userId: user.id, locale: user.locale };
    },

    /**
     * One-click unsubscribe: e-mail notifications off for the token's user. Gives the undo's own
     * token (valid for an hour): the unsubscribe token itself can never turn e-mails back on.
     */
    unsubscribe: async (
      token: string,
    ): Promise<{ locale: Locale; resubscribeToken: string } | undefined> => {
      const user = await tokenUser(token);
      if (!user) return undefined;
      // An erased user has no settings left and gets no e-mail anyway.
      if (!user.erased)
        await options.settingsService.updateSettings(user.id, { email_notifications: false });
      const resubscribeToken = (await unsubscribeTokens()).resubscribeTokenFor(
        user.id,
        outbox.now(),
      );
      return { locale: user.locale, resubscribeToken };
    },

    /**
     * Undoes an unsubscribe: e-mail notifications on again for the user of an undo token that is
     * still valid (not an unsubscribe token: one from an old e-mail turns nothing on).
     */
    resubscribe: async (token: string): Promise<{ locale: Locale } | undefined> => {
      const tokens = await unsubscribeTokens();
      const user = await existingUser(tokens.resubscribeUserIdOf(token, outbox.now()));
      if (!user) return undefined;
      if (!user.erased)
        await options.settingsService.updateSettings(user.id, { email_notifications: true });
      return { locale: user.locale };
    },

    close: () => mailer.close(),
  };
};

export type NotificationsService = ReturnType<typeof createNotificationsService>;
