import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import { demoAccountsOffered } from './db/demo-mode.js';
import { createEventBus } from './lib/event-bus.js';
import { createLimitStore } from './lib/limit-store.js';
import { backgroundModeFor, backgroundWorkOf } from './background/background-services.js';
import {
  createBackgroundThread,
  type BackgroundMode,
  type BackgroundWork,
} from './background/background-work.js';
import { createAttachmentsModule } from './modules/attachments/attachments.module.js';
import { createAuthModule } from './modules/auth/auth.module.js';
import { createEmbedService } from './modules/embed/embed.service.js';
import { createHealthModule } from './modules/health/health.module.js';
import { createIntegrationModule } from './modules/integration/integration.module.js';
import { createMessengerModule } from './modules/messenger/messenger.module.js';
import type { ModuleEvents } from './modules/module-events.js';
import { createNotificationsModule } from './modules/notifications/notifications.module.js';
import { TASK } from './modules/notifications/notifications.service.js';
import {
  createPresenceAnnouncementsFor,
  createPresenceModule,
  createPresenceStoreFor,
} from './modules/presence/presence.module.js';
import { createSafetyModule } from './modules/safety/safety.module.js';
import { createSearchModule } from './modules/search/search.module.js';
import { createSettingsModule } from './modules/settings/settings.module.js';
import { createSsoModule } from './modules/sso/sso.module.js';
import { createTemplatesModule } from './modules/templates/templates.module.js';
import type { Metrics } from './observability/metrics.js';
import { createOutbox } from './outbox/outbox.js';
import type { OutboxOutcome } from './outbox/outbox-worker.js';
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

/** What every module's factory may be handed, made once: the infrastructure the modules share. */
const createSharedParts = ({ config, db, realtime, logger, metrics }: CreateServicesOptions) => {
  const redisTrouble = (message: string) => (error: unknown) =>
    logger.warn({ err: error }, message);
  return {
    events: createEventBus<ModuleEvents>(),
    publisher: realtime.broadcaster,
    redisTrouble,
    // Shared by every instance through Redis when REDIS_URL is set.
    limits: createLimitStore({
      redisUrl: config.redisUrl,
      prefix: `limits:${config.pusher.appId}`,
      onError: redisTrouble('limits: Redis unreachable, this instance counts alone'),
    }),
    // Durable work (e-mails, webhooks; ADR 013): enqueued here, run by the background work.
    outbox: createOutbox({ db }),
    countOutcome: (kind: string, outcome: OutboxOutcome) =>
      metrics.outboxOutcome({ email: TASK.email, webhook: TASK.webhook }, kind, outcome),
  };
};
type SharedParts = ReturnType<typeof createSharedParts>;

/**
 * Who is online: each user's own channel occupied on some instance (docs/realtime.md). What follows
 * a change (last seen, the partners told, e-mails that waited for the user to leave) runs in the
 * background thread when there is one (started here, before presence, so that it answers from the
 * start), else on this thread.
 */
const createPresenceAndThread = (
  { config, db, realtime, logger, background }: CreateServicesOptions,
  { events, publisher, redisTrouble, countOutcome }: SharedParts,
) => {
  const store = createPresenceStoreFor({
    config,
    onRedisError: redisTrouble('presence: Redis unreachable'),
  });
  const here = createPresenceAnnouncementsFor({
    db,
    onlineAmong: (ids) => store.onlineAmong(ids),
    publisher,
    onWentOffline: (userId) => events.emit('userWentOffline', { userId }),
  });
  const mode = backgroundModeFor(config, background);
  if (mode !== (background ?? 'inline'))
    logger.warn('background work runs on the request thread: SQLite in memory has one connection');
  const thread =
    mode === 'thread'
      ? createBackgroundThread({
          config,
          searchPath: db.schema,
          logger,
          presence: store,
          publisher,
          presenceFallback: here,
          onOutboxOutcome: countOutcome,
        })
      : undefined;
  const presence = createPresenceModule({
    config,
    store,
    announcements: thread?.presenceAnnouncements ?? here,
    logger,
  });
  realtime.onOccupancy((channel, occupied) => presence.channelOccupancy(channel, occupied));
  return { presence, thread };
};

/**
 * How the process starts and stops the services (docs/operations.md): background work, presence,
 * and the connections of the services themselves (Redis, SMTP).
 */
const lifecycleOf = ({
  background,
  presence,
  closers,
}: {
  background: BackgroundWork;
  presence: { close(): Promise<void> };
  closers: readonly { close(): unknown }[];
}) => ({
  /** Background work starts: the outbox worker polls, the upload sweeper sweeps (here or in the thread). */
  start: () => background.start(),
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
  stopBackgroundWork: () => background.stop(),
  /** The connections of the services themselves (Redis, SMTP), one after another. */
  async close() {
    for (const closer of closers) await closer.close();
  },
});

/**
 * Every service, built once in dependency order (a service gets the services it calls; nothing
 * refers forward), each through its module's factory (`<area>.module.ts`, ADR 026). What a module
 * announces after its commit goes through one event bus (`ModuleEvents`), and the subscriptions at
 * the end say who acts on what. The map of modules and events: docs/architecture.md.
 */
export const createServices = (options: CreateServicesOptions) => {
  const { config, db, realtime, logger, metrics } = options;
  const shared = createSharedParts(options);
  const { events, limits, outbox, publisher, redisTrouble } = shared;
  const health = createHealthModule({ config, db });
  const auth = createAuthModule({
    config,
    db,
    limits,
    onRedisError: redisTrouble('credential cache: Redis unreachable, nothing is remembered'),
  });
  const { presence, thread } = createPresenceAndThread(options, shared);
  const settings = createSettingsModule({ db, events });
  // E-mails and webhooks for people who are not on the page (docs/notifications.md): here, the
  // tasks of each send and the unsubscribe links; the handlers run with the background work.
  const notifications = createNotificationsModule(
    { config, db, logger },
    { outbox, settings, presence },
  );
  const attachments = createAttachmentsModule({ config, db, limits });
  const messenger = createMessengerModule({
    config,
    db,
    limits,
    logger,
    publisher,
    presence,
    events,
    newMessageWork: notifications,
    messageChangeWork: notifications,
    storedFiles: attachments,
  });
  const integration = createIntegrationModule({
    config,
    db,
    limits,
    logger,
    events,
    messengerService: messenger,
    settingsService: settings,
    closeSockets: async (keys) => {
      await Promise.all(keys.map((key) => realtime.closeSessionSockets(key)));
    },
  });
  const { background, outboxWorker } = backgroundWorkOf(thread, {
    config,
    outbox,
    notifications,
    attachments,
    logger,
    onOutboxOutcome: shared.countOutcome,
    pollOutbox: options.startOutboxWorker !== false,
  });

  // Who acts on what another module announces.
  events.on('userWentOffline', ({ userId }) => notifications.receiverWentOffline(userId));
  events.on('showOnlineChanged', ({ userId, showOnline }) =>
    presence.visibilityChanged(userId, showOnline),
  );
  events.on('userChanged', ({ userId }) => auth.service.forgetUser(userId));
  events.on('messageStored', () => metrics.messageSent());

  return {
    health,
    auth: auth.service,
    presence,
    settings,
    notifications,
    messenger,
    integration,
    // The embedded page's own calls: conversations by the host's ids, through the integration rules.
    embed: createEmbedService({ integrationService: integration, messengerService: messenger }),
    sso: createSsoModule({
      config,
      db,
      authService: auth.service,
      integrationService: integration,
    }),
    attachments,
    safety: createSafetyModule({ db, logger, presence, notifications }),
    search: createSearchModule({ db, messengerService: messenger }),
    templates: createTemplatesModule({ db }),
    /** The durable outbox, and its worker when background work runs inline (undefined: in the thread). */
    outbox: { outbox, worker: outboxWorker },
    /** The demo accounts to offer on the sign-in page (undefined: not a demo). */
    demoAccounts: demoAccountsOffered(config, db),
    ...lifecycleOf({ background, presence, closers: [health, limits, auth, notifications] }),
  };
};

export type Services = ReturnType<typeof createServices>;
