import type { Config } from '../config.js';
import { unsubscribeSecret } from '../db/app-settings.js';
import type { Db } from '../db/database.js';
import type { LimitStore } from '../lib/limit-store.js';
import { createAttachmentsRepository } from '../modules/attachments/attachments.repository.js';
import {
  createAttachmentStorage,
  createAttachmentsService,
  type AttachmentsService,
} from '../modules/attachments/attachments.service.js';
import { createUploadSweeper } from '../modules/attachments/upload-sweeper.service.js';
import { createNotificationsRepository } from '../modules/notifications/notifications.repository.js';
import {
  createMailer,
  createNotificationsService,
  createWebhookSender,
  emailAttemptTimeoutMs,
  type NotificationsService,
  type NotificationsServiceOptions,
} from '../modules/notifications/notifications.service.js';
import type { SettingsService } from '../modules/settings/settings.service.js';
import type { Outbox } from '../outbox/outbox.js';
import {
  createOutboxWorker,
  type OutboxLogger,
  type OutboxOutcome,
} from '../outbox/outbox-worker.js';

/**
 * The pieces of the service graph that background work needs, made from the configuration in one
 * place: `createServices` (the request thread) and background-thread.ts (the background thread)
 * both build them with these.
 */

/**
 * What background work logs with (Fastify's logger in the request thread, pino in the other): what
 * the outbox worker needs, which covers the mailer and the upload sweeper.
 */
export type BackgroundLogger = OutboxLogger;

/** What each thread has before any service: its configuration, database and logger. */
export interface ThreadBasics {
  config: Config;
  db: Db;
  logger: BackgroundLogger;
}

/** The services notifications sit on, made by each thread in its own way. */
export interface NotificationsDependencies {
  outbox: Outbox;
  settings: SettingsService;
  presence: NonNullable<NotificationsServiceOptions['presence']>;
}

/** E-mails and webhooks for people who are not on the page (docs/notifications.md). */
export const createNotificationsFromConfig = (
  { config, db, logger }: ThreadBasics,
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

/** Attachments, stored where STORAGE_URL says. */
export const createAttachmentsFromConfig = ({
  config,
  db,
  limits,
}: {
  config: Config;
  db: Db;
  limits: LimitStore;
}): AttachmentsService =>
  createAttachmentsService({
    db: db.kysely,
    repository: createAttachmentsRepository(db),
    storage: createAttachmentStorage(config.storage.url, config.storage.credentials),
    limits,
  });

export interface BackgroundServicesOptions {
  config: Config;
  outbox: Outbox;
  notifications: NotificationsService;
  attachments: AttachmentsService;
  logger: BackgroundLogger;
  /** Told how each outbox attempt ended (metrics). */
  onOutboxOutcome: (kind: string, outcome: OutboxOutcome) => void;
}

/**
 * The background work of one server process: the outbox worker with the notification handlers
 * (e-mails, webhooks; ADR 013) and the upload sweeper. Runs in the background thread (ADR 017), or
 * in the request thread when the app is built `inline` (the API tests).
 */
export const createBackgroundServices = ({
  config,
  outbox,
  notifications,
  attachments,
  logger,
  onOutboxOutcome,
}: BackgroundServicesOptions) => {
  const outboxWorker = createOutboxWorker({
    outbox,
    pollMs: config.outbox.pollMs,
    leaseMs: config.outbox.leaseMs,
    backoff: { baseMs: config.outbox.retryBaseMs, capMs: 3_600_000 },
    retentionMs: config.outbox.retentionMs,
    concurrency: config.outbox.concurrency,
    logger,
    onOutcome: onOutboxOutcome,
  });
  notifications.registerHandlers(outboxWorker);
  const uploadSweeper = createUploadSweeper({
    attachmentsService: attachments,
    uploadTempDir: config.storage.uploadTempDir,
    everyMs: config.storage.sweepMs,
    logger,
  });
  return {
    outboxWorker,
    /** The outbox worker polls (unless `pollOutbox` is false: tests drive it with `runOnce`), the sweeper sweeps. */
    start({ pollOutbox = true }: { pollOutbox?: boolean } = {}) {
      if (pollOutbox) outboxWorker.start();
      uploadSweeper.start();
    },
    /**
     * No new work; running handlers get a bounded time, those still running then are cut short
     * and their tasks handed back (the database is still open).
     */
    async stop() {
      await outboxWorker.close();
      await uploadSweeper.stop();
    },
  };
};

export type BackgroundServices = ReturnType<typeof createBackgroundServices>;
