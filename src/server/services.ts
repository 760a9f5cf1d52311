import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import { isDemoMode, listDemoAccounts } from './db/seed.js';
import { createEventBus } from './lib/event-bus.js';
import { createLimitStore } from './lib/limit-store.js';
import {
  createAttachmentsFromConfig,
  createBackgroundServices,
  createNotificationsFromConfig,
} from './background/background-services.js';
import {
  createBackgroundThread,
  type BackgroundMode,
  type BackgroundWork,
} from './background/background-work.js';
import { createAuthRepository } from './modules/auth/auth.repository.js';
import {
  createAuthService,
  createCredentialCache,
  type CachedCredential,
} from './modules/auth/auth.service.js';
import { createEmbedService } from './modules/embed/embed.service.js';
import { createIntegrationRepository } from './modules/integration/integration.repository.js';
import { createIntegrationService } from './modules/integration/integration.service.js';
import { createMessengerRepository } from './modules/messenger/messenger.repository.js';
import { createMessengerService } from './modules/messenger/messenger.service.js';
import type { ModuleEvents } from './modules/module-events.js';
import { TASK } from './modules/notifications/notifications.service.js';
import { createHealthRepository } from './modules/health/health.repository.js';
import { createHealthService } from './modules/health/health.service.js';
import type { Metrics } from './observability/metrics.js';
import { redisForCommands } from './lib/redis.js';
import { createPresenceRepository } from './modules/presence/presence.repository.js';
import {
  createPresenceAnnouncements,
  createPresenceService,
  createPresenceStore,
} from './modules/presence/presence.service.js';
import { createSafetyRepository } from './modules/safety/safety.repository.js';
import { createSafetyService } from './modules/safety/safety.service.js';
import { createSearchRepository } from './modules/search/search.repository.js';
import { createSearchService } from './modules/search/search.service.js';
import { createSettingsRepository } from './modules/settings/settings.repository.js';
import { createSettingsService } from './modules/settings/settings.service.js';
import { createSsoRepository } from './modules/sso/sso.repository.js';
import { createSsoService } from './modules/sso/sso.service.js';
import { createTemplatesRepository } from './modules/templates/templates.repository.js';
import { createTemplatesService } from './modules/templates/templates.service.js';
import { createOutbox } from './outbox/outbox.js';
import type { OutboxOutcome, OutboxWorker } from './outbox/outbox-worker.js';
import type { Realtime } from './realtime/index.js';

export interface CreateServicesOptions {
  config: Config;
  db: Db;
  realtime: Realtime;
  logger: FastifyBaseLogger;
  metrics: Metrics;
  /** False: the outbox worker does not poll (tests that drive it with `runOnce`). Default true. */
  startOutboxWorker?: boolean;
  /**
   * Where background work (the outbox worker: e-mails, webhooks; the upload sweeper) runs:
   * `inline` on this event loop (the default: API tests drive the outbox with `runOnce`), or
   * `thread`, a worker thread of its own with its own database connection (main.ts; ADR 017).
   */
  background?: BackgroundMode;
}

/**
 * `thread` unless the database is SQLite in memory: a second connection would open another,
 * empty database, so its background work stays on this thread.
 */
const backgroundMode = (config: Config, wanted: BackgroundMode = 'inline'): BackgroundMode =>
  wanted === 'thread' && /^sqlite:(:memory:)?$/.test(config.databaseUrl) ? 'inline' : wanted;

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
  // Durable work (e-mails, webhooks; ADR 013): enqueued here, run by the background work below.
  const outbox = createOutbox({ db });
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
  const presenceStore = createPresenceStore({
    redisUrl: config.redisUrl,
    prefix: `presence:${config.pusher.appId}`,
    onError: redisTrouble('presence: Redis unreachable'),
  });
  // What follows a change of presence (last seen, the partners told, e-mails that waited for the
  // user to leave): in the background thread when there is one, else here.
  const presenceHere = createPresenceAnnouncements({
    db: db.kysely,
    repository: createPresenceRepository(db),
    onlineAmong: (ids) => presenceStore.onlineAmong(ids),
    publisher: realtime.broadcaster,
    onWentOffline: (userId) => events.emit('userWentOffline', { userId }),
  });
  const countOutcome = (kind: string, outcome: OutboxOutcome) =>
    metrics.outboxOutcome({ email: TASK.email, webhook: TASK.webhook }, kind, outcome);
  const mode = backgroundMode(config, options.background);
  if (mode !== (options.background ?? 'inline'))
    logger.warn('background work runs on the request thread: SQLite in memory has one connection');
  const backgroundThread =
    mode === 'thread'
      ? createBackgroundThread({
          config,
          searchPath: db.schema,
          logger,
          presence: presenceStore,
          publisher: realtime.broadcaster,
          presenceFallback: presenceHere,
          onOutboxOutcome: countOutcome,
        })
      : undefined;
  const presence = createPresenceService({
    store: presenceStore,
    announcements: backgroundThread?.presenceAnnouncements ?? presenceHere,
    graceMs: config.presenceGraceMs,
    logger,
  });
  realtime.onOccupancy((channel, occupied) => presence.channelOccupancy(channel, occupied));
  const settings = createSettingsService({
    db: db.kysely,
    repository: createSettingsRepository(db),
    events,
  });
  // E-mails and webhooks for people who are not on the page (docs/notifications.md): here, the
  // tasks of each send and the unsubscribe links; the handlers run with the background work.
  const notifications = createNotificationsFromConfig(
    { config, db, logger },
    { outbox, settings, presence },
  );
  const attachments = createAttachmentsFromConfig({ config, db, limits });
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
    editWindowMs: config.editWindowMs,
    messageChangeWork: notifications,
    storedFiles: attachments,
    onStorageError: (error) =>
      logger.warn({ err: error }, 'a deleted message’s files stay until the sweep of orphans'),
  });
  // Searching the viewer's messages; each result's conversation as the messenger lists it.
  const search = createSearchService({
    db: db.kysely,
    repository: createSearchRepository(db),
    messengerService: messenger,
  });
  const integration = createIntegrationService({
    db: db.kysely,
    repository: createIntegrationRepository(db),
    messengerService: messenger,
    settingsService: settings,
    publicUrl: config.publicUrl,
    limits,
    // the burst is one second's worth (at least one message): HOST_SEND_RATE_PER_SECOND at once
    hostSendRate: {
      burst: Math.max(1, Math.ceil(config.hostSendRatePerSecond)),
      perSecond: config.hostSendRatePerSecond,
    },
    events,
    closeSockets: async (keys) => {
      await Promise.all(keys.map((key) => realtime.closeSessionSockets(key)));
    },
    onCloseSocketsError: (error) =>
      logger.error({ err: error }, 'erasure: could not close every live socket of the user'),
  });
  // The embedded page's own calls: conversations by the host's ids, through the integration rules.
  const embed = createEmbedService({
    integrationService: integration,
    messengerService: messenger,
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
  // Blocks and reports; the host's webhook of each report rides in its commit.
  const safety = createSafetyService({
    db: db.kysely,
    repository: createSafetyRepository(db),
    presence,
    notifications,
    onPublishError: (error) =>
      logger.warn({ err: error }, 'presence of a blocked pair not told; the block is stored'),
  });
  // Saved replies: each user's own, alone.
  const templates = createTemplatesService({
    db: db.kysely,
    repository: createTemplatesRepository(db),
  });

  // Background work: the outbox worker with the notification handlers, and the upload sweeper.
  let outboxWorker: OutboxWorker | undefined;
  let background: BackgroundWork;
  if (backgroundThread) {
    background = backgroundThread;
  } else {
    const inline = createBackgroundServices({
      config,
      outbox,
      notifications,
      attachments,
      logger,
      onOutboxOutcome: countOutcome,
    });
    outboxWorker = inline.outboxWorker;
    background = {
      start: () => inline.start({ pollOutbox: options.startOutboxWorker !== false }),
      stop: () => inline.stop(),
    };
  }

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
    embed,
    sso,
    attachments,
    safety,
    search,
    templates,
    /** The durable outbox, and its worker when background work runs inline (undefined: in the thread). */
    outbox: { outbox, worker: outboxWorker },
    /** The demo accounts to offer on the sign-in page (undefined: not a demo). */
    demoAccounts,
    /** Background work starts: the outbox worker polls, the upload sweeper sweeps (here or in the thread). */
    start() {
      background.start();
    },
    /**
     * A stop begins, while sockets are still open: the users held here are let go (their partners
     * are told while the broadcaster still runs; they come back online where they reconnect).
     */
    releasePresence: () => presence.close(),
    /**
     * No new background work; running handlers get a bounded time, then their tasks are handed
     * back (the database is still open). In thread mode: the thread is asked to stop and waited
     * for (bounded), then ended.
     */
    async stopBackgroundWork() {
      await background.stop();
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
