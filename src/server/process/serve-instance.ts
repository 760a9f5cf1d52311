import type { Server } from 'node:http';
import { AggregatorRegistry } from 'prom-client';
import { buildApp } from '../app.js';
import { admissionThroughPrimary } from './cluster-admission.js';
import type { Config } from '../config.js';
import { openDatabase } from '../db/database.js';
import { prepareDatabase } from './prepare-database.js';
import { serveMetrics } from '../observability/metrics.js';
import { announceRunning } from './startup-banner.js';

/** Requests under way when the server stops accepting get this long to finish. */
const REQUEST_GRACE_MS = 8000;
/** After the shutdown delay, the stop is given this long before the process exits regardless. */
export const STOP_DEADLINE_MS = 24_000;

/** What a cluster's primary sends a worker to stop it (a signal may also reach it directly). */
export const STOP_MESSAGE = 'messenger:stop';

export interface ServeInstanceOptions {
  /**
   * `single`: the only process (migrates, seeds the demo when asked, serves `/metrics` itself and
   * prints the address). `worker`: one of WEB_CONCURRENCY cluster workers; the primary did all
   * that, and reads this worker's metrics to sum them.
   */
  role: 'single' | 'worker';
}

/**
 * Serves the messenger in this process until a stop (docs/operations.md): readiness answers 503 at
 * once; after SHUTDOWN_DELAY_SECONDS nothing new is accepted, requests under way finish, live
 * sockets get 4200, claimed outbox tasks are handed back; exit 0. A second signal exits at once.
 */
export const serveInstance = async (config: Config, { role }: ServeInstanceOptions) => {
  // A stop may come before the server exists (a signal, or the primary stopping a worker it just
  // started): it is kept and carried out once there is something to stop.
  let stop: ((reason: string) => void) | undefined;
  let stopAsked: string | undefined;
  let signals = 0;
  const askStop = (reason: string, fromSignal: boolean) => {
    // a person's (or supervisor's) second signal exits now; the primary passing a stop on, which
    // may come with the same signal sent to the whole process group, is not a second one
    if (fromSignal && ++signals > 1) {
      console.warn(`${reason} again: exiting now`);
      process.exit(1);
    }
    if (stop) stop(reason);
    else stopAsked ??= reason;
  };
  process.on('SIGTERM', () => askStop('SIGTERM', true));
  process.on('SIGINT', () => askStop('SIGINT', true));
  if (role === 'worker') {
    process.on('message', (message) => {
      if (message === STOP_MESSAGE) askStop('stop from the primary', false);
    });
    // The primary reads every worker's figures and serves their sums; a worker answers from the
    // start (nothing yet), so a scrape while one starts is not a timeout. (prom-client answers once
    // an AggregatorRegistry exists in the worker.)
    AggregatorRegistry.setRegistries([]);
    new AggregatorRegistry();
  }

  // the server's log once it exists; stderr before
  let warn = (message: string) => console.warn(message);
  const db = openDatabase(config.databaseUrl, {
    poolSize: config.databasePoolSize,
    checkpointInBackground: true,
    onBackgroundProblem: (message) => warn(message),
  });
  const prepared = role === 'single' ? await prepareDatabase(config, db) : undefined;
  // Background work (e-mails, webhooks, upload sweeps) in a thread of its own (ADR 017).
  const { app, health, metrics } = await buildApp({
    config,
    db,
    background: 'thread',
    // the instance's socket limits are counted by the primary, for every worker
    ...(role === 'worker' ? { connectionAdmission: admissionThroughPrimary() } : {}),
  });
  warn = (message) => app.log.warn(message);
  if (prepared?.notSeeded) app.log.info(`demo data not seeded: ${prepared.notSeeded}`);
  app.addHook('onClose', async () => db.destroy());
  let metricsServer: Server | undefined;
  stop = (reason: string) => {
    if (stop === undefined) return;
    stop = () => undefined; // once
    health.beginDraining();
    app.log.info({ signal: reason, delayMs: config.shutdownDelayMs }, 'stopping: draining');
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
  // asked to stop while it started: it stops without ever listening
  if (stopAsked !== undefined) return stop(stopAsked);
  await app.listen({ port: config.port, host: config.host });

  if (!prepared) {
    if (config.metricsPort !== undefined) {
      AggregatorRegistry.setRegistries([metrics.registry]);
      metrics.collectDefaults();
    }
    return;
  }
  announceRunning(config, prepared.demo);
  if (config.metricsPort !== undefined) {
    metricsServer = await serveMetrics(metrics.registry, config.metricsPort, config.host);
    metrics.collectDefaults();
  }
};
