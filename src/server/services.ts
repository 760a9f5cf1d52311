import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import { unsubscribeSecret } from './db/app-settings.js';
import type { Db } from './db/database.js';
import { isDemoMode, listDemoAccounts } from './db/seed.js';
import { createEventBus } from './lib/event-bus.js';
import { createLimitStore } from './lib/limit-store.js';
import { createAttachmentStorage } from './modules/attachments/attachment-storage.js';
import { createAttachmentsRepository } from './modules/attachments/attachments.repository.js';
import { createAttachmentsService } from './modules/attachments/attachments.service.js';
import { createUploadSweeper } from './modules/attachments/upload-sweeper.js';
import { createAuthRepository } from './modules/auth/auth.repository.js';
import { createAuthService, type CachedCredential } from './modules/auth/auth.service.js';
import { createCredentialCache } from './modules/auth/credential-cache.js';
import { createIntegrationRepository } from './modules/integration/integration.repository.js';
import { createIntegrationService } from './modules/integration/integration.service.js';
import { createMessengerRepository } from './modules/messenger/messenger.repository.js';
import { createMessengerService } from './modules/messenger/messenger.service.js';
import type { ModuleEvents } from './modules/module-events.js';
import { createMailer } from './modules/notifications/mailer.js';
import { createNotificationsRepository } from './modules/notifications/notifications.repository.js';
import {
  createNotificationsService,
  emailAttemptTimeoutMs,
  TASK,
} from './modules/notifications/notifications.service.js';
import { createHealthRepository } from './modules/health/health.repository.js';
import { createHealthService } from './modules/health/health.service.js';
import type { Metrics } from './observability/metrics.js';
import { redisForCommands } from './lib/redis.js';
import { createWebhookSender } from './modules/notifications/webhook-sender.js';
import { MemoryPresenceStore, RedisPresenceStore } from './modules/presence/presence-store.js';
import { createPresenceRepository } from './modules/presence/presence.repository.js';
import { createPresenceService } from './modules/presence/presence.service.js';
import { createSettingsRepository } from './modules/settings/settings.repository.js';
import { createSettingsService } from './modules/settings/settings.service.js';
import { createSsoRepository } from './modules/sso/sso.repository.js';
import { createSsoService } from './modules/sso/sso.service.js';
import { createOutbox } from './outbox/outbox.js';
import { createOutboxWorker } from './outbox/outbox-worker.js';
import type { Realtime } from './realtime/index.js';

export interface CreateServicesOptions {
  config: Config;
  db: Db;
  realtime: Realtime;
  logger: FastifyBaseLogger;
  metrics: Metrics;
  /** False: the outbox worker does not poll (tests that drive it with `runOnce`). Default true. */
  startOutboxWorker?: boolean;
}

/** A remembered session or token is read again at least this often (invalidation does the rest). */
const CREDENTIAL_CACHE_LIFETIME_MS = 30_000;
const CREDENTIAL_CACHE_MAX_ENTRIES = 50_000;

/**
 * Every service, built once in dependency order (a service gets the services it calls; nothing
 * refers forward). What a module announces after its commit goes through one event bus
 * (`ModuleEvents`), and the subscriptions at the end say who acts on what. The map of modules and
 * events: docs/architecture.md.
 */
export const createServices = ({
  config,
  db,
  realtime,
  logger,
  metrics,
  ...options
}: CreateServicesOptions) => {
  const events = createEventBus<ModuleEvents>();
  const redisTrouble = (message: string) => (error: unknown) =>
    logger.warn({ err: error }, message);
  // Shared by every instance through Redis when REDIS_URL is set.
  const limits = createLimitStore({
    redisUrl: config.redisUrl,
    prefix: `limits:${config.pusher.appId}`,
    onError: redisTrouble('limits: Redis unreachable, this instance counts alone'),
  });
  // Who each session or token is: remembered between requests, forgotten on every instance when
  // it ends or its user changes.
  const credentials = createCredentialCache<CachedCredential>({
    lifetimeMs: CREDENTIAL_CACHE_LIFETIME_MS,
    maxEntries: CREDENTIAL_CACHE_MAX_ENTRIES,
    redisUrl: config.redisUrl,
    channel: `auth:${config.pusher.appId}:forget`,
    onError: redisTrouble('credential cache: Redis unreachable, nothing is remembered'),
  });
  // Durable work (e-mails, webhooks; ADR 013).
  const outbox = createOutbox({ db });
  const outboxWorker = createOutboxWorker({
    outbox,
    pollMs: config.outbox.pollMs,
    leaseMs: config.outbox.leaseMs,
    backoff: { baseMs: config.outbox.retryBaseMs, capMs: 3_600_000 },
    retentionMs: config.outbox.retentionMs,
    concurrency: config.outbox.concurrency,
    logger,
    onOutcome: (kind, outcome) =>
      metrics.outboxOutcome({ email: TASK.email, webhook: TASK.webhook }, kind, outcome),
  });
  const health = createHealthService({
    db: db.kysely,
    repository: createHealthRepository(db),
    redis: config.redisUrl
      ? redisForCommands(config.redisUrl, `readiness:${config.pusher.appId}`, {
          queueWhileConnecting: false,
        })
      : undefined,
  });

  const auth = createAuthService({
    db: db.kysely,
    repository: createAuthRepository(db),
    limits,
    login: config.login,
    tokens: config.tokens,
    credentials,
  });
  // Who is online: each user's own channel occupied on some instance (docs/realtime.md).
  const presence = createPresenceService({
    db: db.kysely,
    repository: createPresenceRepository(db),
    store: config.redisUrl
      ? new RedisPresenceStore(
          config.redisUrl,
          `presence:${config.pusher.appId}`,
          redisTrouble('presence: Redis unreachable'),
        )
      : new MemoryPresenceStore(),
    publisher: realtime.broadcaster,
    graceMs: config.presenceGraceMs,
    logger,
    events,
  });
  realtime.onOccupancy((channel, occupied) => presence.channelOccupancy(channel, occupied));
  const settings = createSettingsService({
    db: db.kysely,
    repository: createSettingsRepository(db),
    events,
  });
  // E-mails and webhooks for people who are not on the page (docs/notifications.md).
  const notifications = createNotificationsService({
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
    siteName: config.notifications.siteName,
    enabled: config.notifications.enabled,
    emailDelayMs: config.notifications.emailDelayMs,
    emailMinIntervalMs: config.notifications.emailMinIntervalMs,
    leaseMs: config.outbox.leaseMs,
    logger,
    presence,
  });
  notifications.registerHandlers(outboxWorker);
  const messenger = createMessengerService({
    db: db.kysely,
    repository: createMessengerRepository(db),
    publisher: realtime.broadcaster,
    limits,
    sendRate: config.sendRate,
    onPublishError: (error) =>
      logger.warn({ err: error }, 'broadcast failed; the message is stored'),
    presence,
    newMessageWork: notifications,
    events,
  });
  const integration = createIntegrationService({
    db: db.kysely,
    repository: createIntegrationRepository(db),
    messengerService: messenger,
    settingsService: settings,
    publicUrl: config.publicUrl,
    events,
    closeSockets: async (keys) => {
      await Promise.all(keys.map((key) => realtime.closeSessionSockets(key)));
    },
    onCloseSocketsError: (error) =>
      logger.error({ err: error }, 'erasure: could not close every live socket of the user'),
  });
  // Sign-in links from the host site: off without SSO_SECRET.
  const sso = config.ssoSecret
    ? createSsoService({
        db: db.kysely,
        repository: createSsoRepository(db),
        secret: config.ssoSecret,
        authService: auth,
        integrationService: integration,
      })
    : undefined;
  const attachments = createAttachmentsService({
    db: db.kysely,
    repository: createAttachmentsRepository(db),
    storage: createAttachmentStorage(config.storage.url, config.storage.credentials),
    limits,
  });
  const uploadSweeper = createUploadSweeper({
    attachmentsService: attachments,
    uploadTempDir: config.storage.uploadTempDir,
    everyMs: config.storage.sweepMs,
    logger,
  });

  // Who acts on what another module announces.
  events.on('userWentOffline', ({ userId }) => notifications.receiverWentOffline(userId));
  events.on('showOnlineChanged', ({ userId, showOnline }) =>
    presence.visibilityChanged(userId, showOnline),
  );
  events.on('userChanged', ({ userId }) => auth.forgetUser(userId));
  events.on('messageStored', () => metrics.messageSent());

  // Demo mode is read once, when first asked (the database may still be unreachable at start).
  let demoMode: Promise<boolean> | undefined;
  const demoAccounts = async () => {
    demoMode ??= isDemoMode(config, db).catch((error: unknown) => {
      demoMode = undefined;
      throw error;
    });
    return (await demoMode) ? listDemoAccounts(db) : undefined;
  };

  return {
    health,
    auth,
    presence,
    settings,
    notifications,
    messenger,
    integration,
    sso,
    attachments,
    outbox: { outbox, worker: outboxWorker },
    /** The demo accounts to offer on the sign-in page (undefined: not a demo). */
    demoAccounts,
    /** Background work starts: the outbox worker polls, the upload sweeper sweeps. */
    start() {
      if (options.startOutboxWorker !== false) outboxWorker.start();
      uploadSweeper.start();
    },
    /**
     * A stop begins, while sockets are still open: the users held here are let go (their partners
     * are told while the broadcaster still runs; they come back online where they reconnect).
     */
    releasePresence: () => presence.close(),
    /** No new background work; running handlers get a bounded time (the database is still open). */
    async stopBackgroundWork() {
      await outboxWorker.close();
      await uploadSweeper.stop();
    },
    /** The connections of the services themselves (Redis, SMTP). */
    async close() {
      await health.close();
      await limits.close();
      await credentials.close();
      notifications.close();
    },
  };
};

export type Services = ReturnType<typeof createServices>;
