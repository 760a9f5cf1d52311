import { unsubscribeSecret } from '../../db/app-settings.js';
import type { Outbox } from '../../outbox/outbox.js';
import type { ModuleBasics } from '../module-basics.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { NotificationsLogger } from './email-sending.js';
import { createMailer } from './mailer.js';
import { emailAttemptTimeoutMs } from './notification-tasks.js';
import { createNotificationsRepository } from './notifications.repository.js';
import {
  createNotificationsService,
  type NotificationsService,
  type NotificationsServiceOptions,
} from './notifications.service.js';
import { createWebhookSender } from './webhook-sender.js';

/** The services notifications sit on, made by each thread in its own way. */
export interface NotificationsDependencies {
  outbox: Outbox;
  settings: SettingsService;
  presence: NonNullable<NotificationsServiceOptions['presence']>;
}

/**
 * E-mails and webhooks for people who are not on the page (docs/notifications.md): the mailer (SMTP,
 * or files in MAIL_DIR), the host's webhook sender when WEBHOOK_URL is set. Made by the request
 * thread (the tasks of each send, the unsubscribe links) and by the background thread (the handlers).
 */
export const createNotificationsModule = (
  { config, db, logger }: ModuleBasics & { logger: NotificationsLogger },
  { outbox, settings, presence }: NotificationsDependencies,
): NotificationsService =>
  createNotificationsService({
    db,
    repository: createNotificationsRepository(db),
    outbox,
    settingsService: settings,
    mailer: createMailer({
      smtpUrl: config.notifications.smtpUrl,
      from: config.notifications.mailFrom,
      mailDir: config.notifications.mailDir,
      attemptTimeoutMs: emailAttemptTimeoutMs(config.outbox.leaseMs),
      logger,
    }),
    webhook: config.webhook ? createWebhookSender(config.webhook) : undefined,
    unsubscribeSecret: () => unsubscribeSecret(db.kysely),
    publicUrl: config.publicUrl,
    siteName: config.brand.siteName,
    logoUrl: config.brand.logoUrl,
    brandColor: config.brand.color,
    enabled: config.notifications.enabled,
    emailDelayMs: config.notifications.emailDelayMs,
    emailMinIntervalMs: config.notifications.emailMinIntervalMs,
    leaseMs: config.outbox.leaseMs,
    logger,
    presence,
  });
