import type { Server } from 'node:http';
import { buildApp } from './app.js';
import { serveMetrics } from './observability/metrics.js';
import { loadConfig } from './config.js';
import { migrateToLatest, openDatabase } from './db/database.js';
import { decideDemoSeed, DEMO_ACCOUNTS, DEMO_PASSWORD, isDemoMode, seedDemo } from './db/seed.js';

/** Requests under way when the server stops accepting get this long to finish. */
const REQUEST_GRACE_MS = 8000;
/** After the shutdown delay, the stop is given this long before the process exits regardless. */
const STOP_DEADLINE_MS = 24_000;

/** `npm start` / `node dist/server/main.js`: migrate, seed the demo when asked, serve, stop cleanly. */
const main = async () => {
  const config = loadConfig();
  // the server's log once it exists; stderr before
  let warn = (message: string) => console.warn(message);
  const db = openDatabase(config.databaseUrl, {
    checkpointInBackground: true,
    onBackgroundProblem: (message) => warn(message),
  });
  await migrateToLatest(db);
  const decision = await decideDemoSeed(config, db);
  if (decision.seed) {
    if (decision.warning) console.warn(`\n*** WARNING: ${decision.warning} ***\n`);
    await seedDemo(db);
  }
  const demo = await isDemoMode(config, db);
  const { app, health, metrics } = await buildApp({ config, db });
  warn = (message) => app.log.warn(message);
  if (!decision.seed && config.demoSeed !== 'off')
    app.log.info(`demo data not seeded: ${decision.reason}`);
  app.addHook('onClose', async () => db.destroy());
  // Handlers first: a signal that comes while the server starts stops it cleanly too.
  let metricsServer: Server | undefined;
  let stopping = false;
  /**
   * A stop (docs/operations.md): readiness answers 503 at once; after SHUTDOWN_DELAY_SECONDS nothing
   * new is accepted, requests under way finish, live sockets get 4200, claimed outbox tasks are
   * handed back; exit 0. A second signal exits at once.
   */
  const stop = (signal: string) => {
    if (stopping) {
      app.log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    health.beginDraining();
    app.log.info({ signal, delayMs: config.shutdownDelayMs }, 'stopping: draining');
    // Whatever happens, the process is gone in time.
    setTimeout(() => {
      app.log.error('stopping: not done in time, exiting');
      process.exit(1);
    }, config.shutdownDelayMs + STOP_DEADLINE_MS).unref();
    setTimeout(() => {
      // Requests still being answered get a few seconds; a client that stops reading a download
      // must not hold the stop for ever.
      setTimeout(() => {
        app.log.warn('stopping: closing the connections still open');
        app.server.closeAllConnections();
      }, REQUEST_GRACE_MS).unref();
      Promise.all([
        app.close(),
        new Promise((resolve) => metricsServer?.close(resolve) ?? resolve(undefined)),
      ]).then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(error);
          process.exit(1);
        },
      );
    }, config.shutdownDelayMs).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  await app.listen({ port: config.port, host: config.host });

  const address = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`;
  const lines = [`Messenger is running at ${address}/messages`];
  if (demo) {
    lines.push(`Demo accounts (password "${DEMO_PASSWORD}"):`);
    for (const account of DEMO_ACCOUNTS)
      lines.push(`  ${account.email.padEnd(24)} ${account.role.padEnd(10)} ${account.name}`);
  }
  console.log(lines.join('\n'));

  if (config.metricsPort !== undefined) {
    metricsServer = await serveMetrics(metrics, config.metricsPort, config.host);
    metrics.collectDefaults();
  }
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
