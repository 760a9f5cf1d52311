import { resolve } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import { BODY_LIMIT_BYTES, paths, type MessengerConfig } from '../shared/api.js';
import type { Config } from './config.js';
import { isDemoMode, listDemoAccounts } from './db/seed.js';
import type { Db } from './db/database.js';
import { createAuthRepository } from './modules/auth/auth.repository.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { broadcastingRoutes } from './modules/broadcasting/broadcasting.routes.js';
import { createMessengerRepository } from './modules/messenger/messenger.repository.js';
import { messengerRoutes } from './modules/messenger/messenger.routes.js';
import { createMessengerService } from './modules/messenger/messenger.service.js';
import { pagesRoutes } from './modules/pages/pages.routes.js';
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
}

export interface App {
  app: FastifyInstance;
  realtime: Realtime;
}

const clientConfig = (config: Config, host: string, port: number): MessengerConfig => {
  const external = config.pusher.external;
  return {
    key: config.appKey,
    locales: ['en', 'ar'],
    fallbackLocale: 'en',
    broadcaster: {
      key: config.pusher.key,
      cluster: external?.cluster ?? 'mt1',
      ...(external ? {} : { wsHost: host, wsPort: port, wssPort: port }),
      forceTLS: external ? external.scheme === 'https' : config.secureCookies,
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
    trustProxy: false,
    return503OnClosing: true,
  });

  const realtime =
    options.realtime ??
    createRealtime({
      appId: config.pusher.appId,
      key: config.pusher.key,
      secret: config.pusher.secret,
      allowedOrigins: config.allowedOrigins,
      activityTimeoutSeconds: config.pusher.activityTimeoutSeconds,
      pongTimeoutSeconds: config.pusher.pongTimeoutSeconds,
      ...(config.redisUrl ? { redisUrl: config.redisUrl } : {}),
      ...(config.pusher.external ? { external: config.pusher.external } : {}),
      logger: app.log,
    });
  realtime.attach(app.server);
  // Before the HTTP server closes: open sockets would otherwise keep it waiting. Clients get 4200 and reconnect elsewhere.
  app.addHook('preClose', async () => realtime.close());

  const authService = createAuthService(createAuthRepository(db.kysely));
  const messengerService = createMessengerService({
    repository: createMessengerRepository(db.kysely),
    publisher: realtime.broadcaster,
    sendRate: config.sendRate,
    onPublishError: (error) =>
      app.log.warn({ err: error }, 'broadcast failed; the message is stored'),
  });

  const external = config.pusher.external;
  await app.register(errorHandlerPlugin);
  await app.register(securityHeadersPlugin, {
    connectSources: external
      ? [
          `wss://*.pusher.com`,
          ...(external.host ? [`wss://${external.host}`, `ws://${external.host}`] : []),
        ]
      : [],
  });
  await app.register(fastifyCookie);
  await app.register(authPlugin, { config, authService });

  app.get(paths.config, async (request) =>
    clientConfig(config, request.hostname, request.port ?? config.port),
  );
  await app.register(authRoutes, {
    config,
    authService,
    onSessionEnded: (sessionHash) => realtime.closeSessionSockets(sessionHash),
    demoAccounts: async () => (isDemoMode(config, db) ? listDemoAccounts(db) : []),
  });
  await app.register(messengerRoutes, { messengerService });
  await app.register(async (scope) => {
    await scope.register(fastifyFormbody);
    await scope.register(broadcastingRoutes, { realtime });
  });
  await app.register(realtime.triggerRoutes);
  await app.register(pagesRoutes, { config, webRoot: options.webRoot ?? resolve('dist/web') });
  return { app, realtime };
};
