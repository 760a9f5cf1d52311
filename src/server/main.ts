import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { migrateToLatest, openDatabase } from './db/database.js';
import { decideDemoSeed, DEMO_ACCOUNTS, DEMO_PASSWORD, isDemoMode, seedDemo } from './db/seed.js';

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
  const { app } = await buildApp({ config, db });
  warn = (message) => app.log.warn(message);
  if (!decision.seed && config.demoSeed !== 'off')
    app.log.info(`demo data not seeded: ${decision.reason}`);
  app.addHook('onClose', async () => db.destroy());
  await app.listen({ port: config.port, host: config.host });

  const address = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`;
  const lines = [`Messenger is running at ${address}/messages`];
  if (demo) {
    lines.push(`Demo accounts (password "${DEMO_PASSWORD}"):`);
    for (const account of DEMO_ACCOUNTS)
      lines.push(`  ${account.email.padEnd(24)} ${account.role.padEnd(10)} ${account.name}`);
  }
  console.log(lines.join('\n'));

  let closing = false;
  const SHUTDOWN_GRACE_MS = 8000;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Requests still being answered get a few seconds; a client that stops reading a download
    // must not hold the stop for ever.
    setTimeout(() => {
      app.log.warn('shutting down: closing the connections still open');
      app.server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS).unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
