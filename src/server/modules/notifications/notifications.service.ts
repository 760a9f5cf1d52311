import type { HostChat } from '../../../shared/models.js';
import type { Locale } from '../../../shared/integration.js';
import type { Db } from '../../db/database.js';
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
import { createEmailRule } from './email-rule.js';
import { createEmailSending, type NotificationsLogger } from './email-sending.js';
import { createHostWebhooks } from './host-webhooks.js';
import type { Mailer } from './mailer.js';
import {
  dueTaskSchema,
  EMAIL_MIN_ATTEMPTS,
  EMAIL_RETRY_MS,
  emailAttemptTimeoutMs,
  emailTaskSchema,
  handlerTimeoutMs,
  TASK,
  webhookTask,
  type DueTask,
  type EmailTask,
} from './notification-tasks.js';
import type { NotificationsRepository } from './notifications.repository.js';
import { createUnsubscribeTokens, type UnsubscribeTokens } from './unsubscribe-token.js';
import type { WebhookSender } from './webhook-sender.js';

// What the rest of the server uses of the task shapes (the other files are this module's own).
export { TASK } from './notification-tasks.js';

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

/**
 * Reaching people who are not on the page (docs/notifications.md): the e-mail
 * rule (`email-rule.ts`), notification e-mails (`email-sending.ts`) and webhooks
 * (`host-webhooks.ts`). Every piece of work goes through the durable outbox, enqueued in the
 * transaction that decided it (the tasks' shapes: `notification-tasks.ts`).
 */
export const createNotificationsService = (options: NotificationsServiceOptions) => {
  const { db, repository, outbox, mailer, webhook, publicUrl } = options;
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

  const hostWebhooks = createHostWebhooks({ outbox, webhook, leaseMs: options.leaseMs });
  const applyEmailRule = createEmailRule({
    db,
    repository,
    outbox,
    emailDelayMs: options.emailDelayMs,
    emailMinIntervalMs: options.emailMinIntervalMs,
    isOnline,
    webhook,
    enqueueWebhook: hostWebhooks.enqueueWebhook,
  });
  const sendEmail = createEmailSending({
    db,
    repository,
    outbox,
    mailer,
    publicUrl,
    siteName: options.siteName,
    logoUrl: options.logoUrl,
    brandColor: options.brandColor,
    logger: options.logger,
    isOnline,
    unsubscribeTokens,
  });

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

    outboxTasksForChange: hostWebhooks.outboxTasksForChange,

    reportCreated: hostWebhooks.reportCreated,

    /** The receiver left the page: an e-mail that waited while they were there goes now. */
    receiverWentOffline: async (receiverId: number): Promise<void> => {
      if (!options.enabled) return;
      const emailKey = await repository.lastEmailKey(db.kysely, receiverId);
      if (emailKey) await outbox.runNow(emailKey);
    },

    /** Gives the outbox worker this module's handlers. */
    registerHandlers: (worker: OutboxWorker): void => {
      worker.register<DueTask>(TASK.due, ({ receiverId }) => applyEmailRule(receiverId), {
        parse: (payload) => dueTaskSchema.parse(payload),
        timeoutMs: handlerTimeoutMs(30_000, options.leaseMs),
      });
      worker.register<EmailTask>(
        TASK.email,
        (payload, { task, signal }) => sendEmail(payload, task.dedupe_key, signal),
        {
          parse: (payload) => emailTaskSchema.parse(payload),
          maxAttempts: EMAIL_MIN_ATTEMPTS,
          minRetryMs: EMAIL_RETRY_MS,
          timeoutMs: emailAttemptTimeoutMs(options.leaseMs),
        },
      );
      hostWebhooks.registerHandler(worker);
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
