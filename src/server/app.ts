import { resolve } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { BODY_LIMIT_BYTES, paths, type MessengerConfig } from '../shared/api.js';
import type { Config } from './config.js';
import { broadcasterSecret, unsubscribeSecret } from './db/app-settings.js';
import { isDemoMode, listDemoAccounts } from './db/seed.js';
import type { Db } from './db/database.js';
import { createWriteBatcher } from './db/write-batcher.js';
import { createLimitStore } from './lib/limit-store.js';
import { createAttachmentStorage } from './modules/attachments/attachment-storage.js';
import { createAttachmentsRepository } from './modules/attachments/attachments.repository.js';
import { attachmentsRoutes } from './modules/attachments/attachments.routes.js';
import { removeAbandonedUploads } from './modules/attachments/upload-temp.js';
import { createAttachmentsService } from './modules/attachments/attachments.service.js';
import { MemoryPresenceStore, RedisPresenceStore } from './modules/presence/presence-store.js';
import { createPresenceRepository } from './modules/presence/presence.repository.js';
import { createPresenceService } from './modules/presence/presence.service.js';
import { presenceRoutes } from './modules/presence/presence.routes.js';
import { createAuthRepository } from './modules/auth/auth.repository.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { createAuthService, type CachedCredential } from './modules/auth/auth.service.js';
import { createCredentialCache } from './modules/auth/credential-cache.js';
import { broadcastingRoutes } from './modules/broadcasting/broadcasting.routes.js';
import { configRoutes } from './modules/config/config.routes.js';
import { createIntegrationRepository } from './modules/integration/integration.repository.js';
import { integrationRoutes } from './modules/integration/integration.routes.js';
import { createIntegrationService } from './modules/integration/integration.service.js';
import { createMessengerRepository } from './modules/messenger/messenger.repository.js';
import { messengerRoutes } from './modules/messenger/messenger.routes.js';
import { createMessengerService } from './modules/messenger/messenger.service.js';
import { createMailer } from './modules/notifications/mailer.js';
import { createNotificationsRepository } from './modules/notifications/notifications.repository.js';
import { notificationsRoutes } from './modules/notifications/notifications.routes.js';
import {
  createNotificationsService,
  emailAttemptTimeoutMs,
  type NotificationsService,
} from './modules/notifications/notifications.service.js';
import { createWebhookSender } from './modules/notifications/webhook-sender.js';
import { pagesRoutes } from './modules/pages/pages.routes.js';
import { createSsoRepository } from './modules/sso/sso.repository.js';
import { ssoRoutes } from './modules/sso/sso.routes.js';
import { createSsoService } from './modules/sso/sso.service.js';
import { createSettingsRepository } from './modules/settings/settings.repository.js';
import { settingsRoutes } from './modules/settings/settings.routes.js';
import { createSettingsService } from './modules/settings/settings.service.js';
import { createOutbox, type Outbox } from './outbox/outbox.js';
import { createOutboxWorker, type OutboxWorker } from './outbox/outbox-worker.js';
import { createOpenApiDocument } from './openapi/openapi-document.js';
import { openApiRoutes } from './openapi/openapi.routes.js';
import { authPlugin } from './plugins/auth.js';
import { errorHandlerPlugin } from './plugins/error-handler.js';
import { securityHeadersPlugin } from './plugins/security-headers.js';
import { createRealtime, type Realtime } from './realtime/index.js';

export interface BuildAppOptions {
  config: Config;
  db: Db;
  /** Defaults to one made from the config (embedded endpoint, Redis fan-out when REDIS_URL is set). */
  realtime?: Realtime;
  /** Folder of the built client; defaults to dist/web. */
  webRoot?: string;
  /**
   * Called for every route as it is registered (Fastify's `onRoute` hook, added before any
   * route): the route-coverage test lists them, the API test harness instruments them.
   */
  onRoute?: (route: RouteOptions) => void;
  /** False: the outbox worker does not poll (tests that drive it with `runOnce`). Default true. */
  startOutboxWorker?: boolean;
}

export interface App {
  app: FastifyInstance;
  realtime: Realtime;
  /** The durable outbox and this instance's worker (modules register their kinds' handlers). */
  outbox: { outbox: Outbox; worker: OutboxWorker };
  notifications: NotificationsService;
}

/** What clients need to connect; built from PUBLIC_URL only, never from the request's Host. */
/** A remembered session or token is read again at least this often (invalidation does the rest). */
const CREDENTIAL_CACHE_LIFETIME_MS = 30_000;
const CREDENTIAL_CACHE_MAX_ENTRIES = 50_000;

const clientConfig = (config: Config): MessengerConfig => {
  const external = config.pusher.external;
  const publicUrl = config.publicUrl;
  const secure = publicUrl.protocol === 'https:';
  const port = Number(publicUrl.port || (secure ? 443 : 80));
  return {
    key: config.appKey,
    locales: ['en', 'ar'],
    fallbackLocale: 'en',
    broadcaster: {
      key: config.pusher.key,
      cluster: external?.cluster ?? 'mt1',
      ...(external ? {} : { wsHost: publicUrl.hostname, wsPort: port, wssPort: port }),
      forceTLS: external ? external.scheme === 'https' : secure,
      authEndpoint: paths.broadcastingAuth,
      userAuthEndpoint: paths.broadcastingUserAuth,
    },
  };
};

/** The application factory: plugins, modules and the live endpoint, wired once. */
export const buildApp = async (options: BuildAppOptions): Promise<App> => {
  const { config, db } = options;
  const app = Fastify({
    logger: { level: config.logLevel },
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    return503OnClosing: true,
    // An external id is up to 128 characters; percent-encoded (`:` and `@` become 3 each) it can
    // be three times that. Longer parameters are refused with 414.
    routerOptions: { maxParamLength: 3 * 128 },
  });
  const { onRoute } = options;
  if (onRoute) app.addHook('onRoute', (route) => onRoute(route));

  const realtime =
    options.realtime ??
    createRealtime({
      appId: config.pusher.appId,
      key: config.pusher.key,
      secret: config.pusher.secret ?? (await broadcasterSecret(db.kysely)),
      allowedOrigins: config.allowedOrigins,
      activityTimeoutSeconds: config.pusher.activityTimeoutSeconds,
      pongTimeoutSeconds: config.pusher.pongTimeoutSeconds,
      maxConnections: config.websocket.maxConnections,
      maxConnectionsPerAddress: config.websocket.maxConnectionsPerAddress,
      trustProxy: config.trustProxy,
      authTimeoutSeconds: config.websocket.authTimeoutSeconds,
      frameRate: config.websocket.frameRate,
      ...(config.redisUrl ? { redisUrl: config.redisUrl } : {}),
      ...(config.pusher.external ? { external: config.pusher.external } : {}),
      logger: app.log,
    });
  realtime.attach(app.server);
  // Presence (contract Part 2): from the sockets of each user's own channel, over every instance.
  const presenceService = createPresenceService({
    db: db.kysely,
    repository: createPresenceRepository(),
    store: config.redisUrl
      ? new RedisPresenceStore(config.redisUrl, `presence:${config.pusher.appId}`, (error) =>
          app.log.warn({ err: error }, 'presence: Redis unreachable'),
        )
      : new MemoryPresenceStore(),
    publisher: realtime.broadcaster,
    graceMs: config.presenceGraceMs,
    logger: app.log,
    onWentOffline: (userId) => notificationsService.receiverWentOffline(userId),
  });
  realtime.onOccupancy((channel, occupied) => presenceService.channelOccupancy(channel, occupied));
  // Before the HTTP server closes: open sockets would otherwise keep it waiting. Clients get 4200 and
  // reconnect elsewhere. The users held here are let go first (their partners are told while the
  // broadcaster still runs; they come back online on the instance they reconnect to).
  app.addHook('preClose', async () => {
    await presenceService.close();
    await realtime.close();
  });

  // Demo mode is read once, when first asked (the database may still be unreachable at build time).
  let demoMode: Promise<boolean> | undefined;
  const isDemo = () => {
    demoMode ??= isDemoMode(config, db).catch((error: unknown) => {
      demoMode = undefined;
      throw error;
    });
    return demoMode;
  };
  // Sign-in throttling and send rates: shared by every instance through Redis when REDIS_URL is set.
  const limits = createLimitStore({
    redisUrl: config.redisUrl,
    prefix: `limits:${config.pusher.appId}`,
    onError: (error) =>
      app.log.warn({ err: error }, 'limits: Redis unreachable, this instance counts alone'),
  });
  app.addHook('onClose', async () => limits.close());
  // Durable work (e-mails, webhooks; ADR 013): polling starts when the app is ready and stops
  // before it closes (running handlers get a bounded time to finish, the database is still open).
  const outbox = createOutbox({ db });
  const outboxWorker = createOutboxWorker({
    outbox,
    pollMs: config.outbox.pollMs,
    leaseMs: config.outbox.leaseMs,
    backoff: { baseMs: config.outbox.retryBaseMs, capMs: 3_600_000 },
    retentionMs: config.outbox.retentionMs,
    concurrency: config.outbox.concurrency,
    logger: app.log,
  });
  if (options.startOutboxWorker !== false) app.addHook('onReady', async () => outboxWorker.start());
  app.addHook('preClose', async () => outboxWorker.close());
  // Who each session or token is: remembered between requests, forgotten on every instance when
  // it ends or its user changes (sign-out, revocation, erasure, the integration API).
  const credentials = createCredentialCache<CachedCredential>({
    lifetimeMs: CREDENTIAL_CACHE_LIFETIME_MS,
    maxEntries: CREDENTIAL_CACHE_MAX_ENTRIES,
    redisUrl: config.redisUrl,
    channel: `auth:${config.pusher.appId}:forget`,
    onError: (error) =>
      app.log.warn({ err: error }, 'credential cache: Redis unreachable, nothing is remembered'),
  });
  app.addHook('onClose', async () => credentials.close());
  const authService = createAuthService({
    db: db.kysely,
    repository: createAuthRepository(db.kysely),
    limits,
    login: config.login,
    tokens: config.tokens,
    credentials,
  });
  const settingsService = createSettingsService({
    db: db.kysely,
    repository: createSettingsRepository(),
    onShowOnlineChanged: (userId, showOnline) =>
      presenceService.visibilityChanged(userId, showOnline),
  });
  // E-mails and webhooks for people who are not on the page (docs/notifications.md).
  const notificationsService = createNotificationsService({
    db,
    repository: createNotificationsRepository(db.kysely, db.dialect),
    outbox,
    settingsService,
    mailer: createMailer({
      smtpUrl: config.notifications.smtpUrl,
      from: config.notifications.mailFrom,
      mailDir: config.notifications.mailDir,
      attemptTimeoutMs: emailAttemptTimeoutMs(config.outbox.leaseMs),
      logger: app.log,
    }),
    webhook: config.webhook ? createWebhookSender(config.webhook) : undefined,
    unsubscribeSecret: () => unsubscribeSecret(db.kysely),
    publicUrl: config.publicUrl,
    siteName: config.notifications.siteName,
    enabled: config.notifications.enabled,
    emailDelayMs: config.notifications.emailDelayMs,
    emailMinIntervalMs: config.notifications.emailMinIntervalMs,
    leaseMs: config.outbox.leaseMs,
    logger: app.log,
    isOnline: async (userId) => (await presenceService.onlineAmong([userId])).has(userId),
  });
  notificationsService.registerHandlers(outboxWorker);
  app.addHook('onClose', async () => notificationsService.close());
  const messengerService = createMessengerService({
    db: db.kysely,
    repository: createMessengerRepository(db.kysely, db.dialect),
    publisher: realtime.broadcaster,
    limits,
    sendRate: config.sendRate,
    onPublishError: (error) =>
      app.log.warn({ err: error }, 'broadcast failed; the message is stored'),
    presence: presenceService,
    writes: createWriteBatcher(db.kysely, db.dialect),
    tasksForMessage: notificationsService.tasksForMessage,
    enqueue: outbox.enqueue,
  });
  const integrationService = createIntegrationService({
    db: db.kysely,
    repository: createIntegrationRepository(),
    messengerService,
    settingsService,
    publicUrl: config.publicUrl,
    onUserChanged: (userId) => authService.forgetUser(userId),
    closeSockets: async (keys) => {
      await Promise.all(keys.map((key) => realtime.closeSessionSockets(key)));
    },
    onCloseSocketsError: (error) =>
      app.log.error({ err: error }, 'erasure: could not close every live socket of the user'),
  });

  const external = config.pusher.external;
  await app.register(errorHandlerPlugin);
  await app.register(securityHeadersPlugin, {
    https: config.publicUrl.protocol === 'https:',
    imageSources: config.imageSources,
    connectSources: external
      ? [
          `wss://*.pusher.com`,
          ...(external.host ? [`wss://${external.host}`, `ws://${external.host}`] : []),
        ]
      : [],
  });
  await app.register(fastifyCookie);
  await app.register(authPlugin, { config, authService });

  await app.register(configRoutes, { clientConfig: clientConfig(config) });
  const onSessionEnded = (sessionHash: string) => realtime.closeSessionSockets(sessionHash);
  await app.register(authRoutes, {
    config,
    authService,
    onSessionEnded,
    demoAccounts: async () => ((await isDemo()) ? listDemoAccounts(db) : undefined),
  });
  // Sign-in links from the host site: off (404) without SSO_SECRET.
  if (config.ssoSecret) {
    const ssoService = createSsoService({
      db: db.kysely,
      repository: createSsoRepository(),
      secret: config.ssoSecret,
      authService,
      integrationService,
    });
    await app.register(ssoRoutes, { config, ssoService, onSessionEnded });
  }
  await app.register(messengerRoutes, { messengerService });
  // A hosted Pusher owns the sockets: its channel webhooks feed presence (404 without one).
  await app.register(presenceRoutes, {
    key: config.pusher.key,
    secret: config.pusher.external ? config.pusher.secret : undefined,
    presenceService,
  });
  await app.register(settingsRoutes, { settingsService });
  const attachmentsService = createAttachmentsService({
    db: db.kysely,
    repository: createAttachmentsRepository(),
    storage: createAttachmentStorage(config.storage.url, config.storage.credentials),
    limits,
  });
  await app.register(attachmentsRoutes, {
    attachmentsService,
    uploadTempDir: config.storage.uploadTempDir,
  });
  // Unused uploads expire, and uploads cut off by a killed process are deleted (every instance
  // sweeps; deleting twice is harmless).
  let sweeping: Promise<unknown> = Promise.resolve();
  const sweep = () => {
    sweeping = Promise.all([
      attachmentsService.expire(),
      removeAbandonedUploads(config.storage.uploadTempDir),
    ]).catch((error: unknown) => app.log.warn({ err: error }, 'attachments: the sweep failed'));
  };
  let sweeper: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    sweep();
    sweeper = setInterval(sweep, config.storage.sweepMs);
    sweeper.unref();
  });
  app.addHook('preClose', async () => {
    clearInterval(sweeper);
    await sweeping;
  });
  await app.register(notificationsRoutes, {
    notificationsService,
    webRoot: options.webRoot ?? resolve('dist/web'),
  });
  await app.register(openApiRoutes, {
    document: createOpenApiDocument({ publicUrl: config.publicUrl }),
  });
  await app.register(integrationRoutes, {
    integrationService,
    keys: config.integrationKeys,
  });
  await app.register(async (scope) => {
    await scope.register(fastifyFormbody);
    await scope.register(broadcastingRoutes, { realtime });
  });
  await app.register(realtime.triggerRoutes);
  await app.register(pagesRoutes, { config, webRoot: options.webRoot ?? resolve('dist/web') });
  return {
    app,
    realtime,
    outbox: { outbox, worker: outboxWorker },
    notifications: notificationsService,
  };
};
