import { resolve } from 'node:path';
import Fastify, { LogController, type FastifyInstance, type RouteOptions } from 'fastify';
import { BODY_LIMIT_BYTES } from '../shared/paths.js';
import type { Config } from './config.js';
import { broadcasterSecret } from './db/app-settings.js';
import type { Db } from './db/database.js';
import { createMetrics, type Metrics } from './observability/metrics.js';
import { REDACTED_LOG_PATHS, requestIdFor, requestLogPlugin } from './observability/request-log.js';
import { createRealtime, type Realtime } from './realtime/index.js';
import type { ConnectionAdmission } from './realtime/connection-admission.js';
import { realtimeOptions } from './realtime/realtime-config.js';
import type { BackgroundMode } from './background/background-work.js';
import { registerRoutes } from './routes.js';
import { createServices, type Services } from './services.js';

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
  /**
   * Where background work runs (e-mails, webhooks, upload sweeps): `inline` on the request thread
   * (the default; tests), or `thread`, a worker thread of its own (main.ts; ADR 017).
   */
  background?: BackgroundMode;
  /** Who counts live sockets against the limits (a cluster worker: its primary); default: this process. */
  connectionAdmission?: ConnectionAdmission;
}

export interface App {
  app: FastifyInstance;
  realtime: Realtime;
  /**
   * The durable outbox and this instance's worker (modules register their kinds' handlers); no
   * worker here when background work runs in its thread.
   */
  outbox: Services['outbox'];
  notifications: Services['notifications'];
  /** Readiness (a stop calls `beginDraining`). */
  health: Services['health'];
  /** This instance's metrics (main.ts serves them on METRICS_PORT). */
  metrics: Metrics;
}

/** Fastify's own options, from the configuration. */
const serverOptions = (config: Config) => ({
  // One JSON object per line; each request's lines name its id (`reqId`), which its answer carries.
  logger: { level: config.logLevel, redact: { paths: REDACTED_LOG_PATHS, censor: '[redacted]' } },
  genReqId: requestIdFor(config.trustProxy),
  // Fastify's own per-request lines are off: requestLogPlugin writes one line per answered request.
  logController: new LogController({ disableRequestLogging: true }),
  bodyLimit: BODY_LIMIT_BYTES,
  trustProxy: config.trustProxy,
  return503OnClosing: true,
  // Also the time a stop's hooks get: the preClose hook waits for background work (the thread gets
  // 15 s, its running handlers 10 of them); Fastify's 10 s default would fail that stop (exit 1).
  pluginTimeout: 30_000,
  // An external id is up to 128 characters; percent-encoded (`:` and `@` become 3 each) it can
  // be three times that. Longer parameters are refused with 414.
  routerOptions: { maxParamLength: 3 * 128 },
});

/** The application factory: the live endpoint, the service graph (services.ts), plugins and routes. */
export const buildApp = async (options: BuildAppOptions): Promise<App> => {
  const { config, db } = options;
  const app = Fastify(serverOptions(config));
  const { onRoute } = options;
  if (onRoute) app.addHook('onRoute', (route) => onRoute(route));
  const metrics = createMetrics();
  await app.register(requestLogPlugin, { metrics });

  const realtime =
    options.realtime ??
    createRealtime({
      ...realtimeOptions(
        config,
        config.pusher.secret ?? (await broadcasterSecret(db.kysely)),
        app.log,
      ),
      ...(options.connectionAdmission ? { admission: options.connectionAdmission } : {}),
    });
  realtime.attach(app.server);
  const services = createServices({
    config,
    db,
    realtime,
    logger: app.log,
    metrics,
    ...(options.startOutboxWorker === undefined
      ? {}
      : { startOutboxWorker: options.startOutboxWorker }),
    ...(options.background === undefined ? {} : { background: options.background }),
  });
  metrics.watch({
    liveConnections: () => realtime.connectionCount(),
    liveDeliveries: () => realtime.deliveredCount(),
    fanoutReceived: () => realtime.fanoutReceivedCount(),
    routedChannels: () => realtime.routedChannelCount(),
    outboxBacklog: () => services.outbox.outbox.backlog(),
  });
  app.addHook('onReady', async () => services.start());
  // A stop: open sockets get 4200 at once (they reconnect elsewhere, and would keep the HTTP
  // server waiting) while presence lets go of this instance's users (their partners are told while
  // the broadcaster still runs; they come back online where they reconnect), then the broadcaster
  // and background work stop. Presence stops listening to the sockets first: their closing here
  // changes nothing.
  app.addHook('preClose', async () => {
    const released = services.releasePresence();
    await realtime.closeSockets();
    await released;
    await realtime.close();
    await services.stopBackgroundWork();
  });
  app.addHook('onClose', async () => services.close());

  await registerRoutes(app, {
    config,
    services,
    realtime,
    webRoot: options.webRoot ?? resolve('dist/web'),
  });
  return {
    app,
    realtime,
    outbox: services.outbox,
    notifications: services.notifications,
    health: services.health,
    metrics,
  };
};
