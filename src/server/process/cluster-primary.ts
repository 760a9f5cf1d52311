import cluster, { type Worker } from 'node:cluster';
import type { Server } from 'node:http';
import { pino } from 'pino';
import { AggregatorRegistry } from 'prom-client';
import { countWorkerSockets } from './cluster-admission.js';
import type { Config } from '../config.js';
import { openDatabase } from '../db/database.js';
import { prepareDatabase } from './prepare-database.js';
import { serveMetrics } from '../observability/metrics.js';
import { STOP_DEADLINE_MS, STOP_MESSAGE } from './serve-instance.js';
import { announceRunning } from './startup-banner.js';

/** A worker that dies is started again after this long, doubling while they keep dying… */
const RESTART_FIRST_DELAY_MS = 500;
const RESTART_MAX_DELAY_MS = 30_000;
/** …and a worker that ran this long resets the delay. */
const RESTART_STABLE_MS = 60_000;

/**
 * WEB_CONCURRENCY above 1: this process migrates the database and seeds the demo once, then runs
 * that many workers (`serveInstance` with role `worker`) that share the port. It answers no
 * request itself: it starts workers again when one dies, sums their metrics on METRICS_PORT and
 * passes a stop on to every worker, exiting once they all have (0 when they all stopped cleanly).
 * Everything live crosses workers through Redis, as it crosses instances (docs/realtime.md).
 */
export const runClusterPrimary = async (config: Config) => {
  const log = pino({ level: config.logLevel }).child({ role: 'primary' });
  let stopping = false;
  /** Workers exist: a stop waits for them (before, it waits for the database's preparation). */
  let forked = false;
  let metricsServer: Server | undefined;
  const living = () => Object.values(cluster.workers ?? {}).filter((worker) => !worker?.isDead());
  const stop = (signal: string) => {
    if (stopping) {
      log.warn({ signal }, 'second signal: exiting now');
      for (const worker of living()) worker?.process.kill('SIGKILL');
      process.exit(1);
    }
    stopping = true;
    log.info({ signal, workers: living().length }, 'stopping workers');
    setTimeout(
      () => {
        log.error('stopping: workers not done in time, exiting');
        process.exit(1);
      },
      config.shutdownDelayMs + STOP_DEADLINE_MS + 1_000,
    ).unref();
    if (!forked) return; // the preparation (a migration) finishes first, then the primary exits
    // A signal from a terminal reaches every worker too; the message is for one sent to us alone.
    // A worker still loading its code has no listener yet and loses it: it is told again once it
    // listens (it stops at once then).
    const tell = (worker: Worker | undefined) => {
      if (worker?.isConnected()) worker.send(STOP_MESSAGE);
    };
    for (const worker of living()) tell(worker);
    cluster.on('listening', tell);
    let clean = true;
    const exitOnceAllGone = () => {
      if (living().length > 0) return;
      const done = () => process.exit(clean ? 0 : 1);
      if (metricsServer) metricsServer.close(done);
      else done();
    };
    cluster.on('exit', (_worker, code) => {
      if (code !== 0) clean = false;
      exitOnceAllGone();
    });
    exitOnceAllGone();
  };
  // First: a stop while the instance starts is a stop too.
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  const db = openDatabase(config.databaseUrl);
  const { demo, notSeeded } = await prepareDatabase(config, db).finally(() => db.destroy());
  if (notSeeded) log.info(`demo data not seeded: ${notSeeded}`);
  if (stopping) process.exit(0); // asked to stop before any worker: nothing else to stop

  countWorkerSockets(config.websocket);
  let restartDelayMs = RESTART_FIRST_DELAY_MS;
  const startedAt = new Map<Worker, number>();
  const fork = () => {
    const worker = cluster.fork();
    startedAt.set(worker, Date.now());
    return worker;
  };

  // Every worker listening, or the start fails as a whole (one bad worker is a bad deploy).
  const workers = Array.from({ length: config.webConcurrency }, fork);
  forked = true;
  const started = await new Promise<boolean>((resolve, reject) => {
    // a worker listening on two addresses (HOST=localhost: 127.0.0.1 and ::1) says so twice
    const listening = new Set<number>();
    const done = () => {
      cluster.off('listening', onListening);
      cluster.off('exit', onEarlyExit);
    };
    const onListening = (worker: Worker) => {
      listening.add(worker.id);
      if (listening.size === workers.length) {
        done();
        resolve(true);
      }
    };
    const onEarlyExit = (worker: Worker, code: number | null, signal: string | null) => {
      done();
      // stopped while starting: the stop goes on (it exits once every worker is gone)
      if (stopping) return resolve(false);
      for (const other of workers) if (other !== worker) other.kill();
      reject(new Error(`worker ${worker.process.pid} exited (${signal ?? code}) while starting`));
    };
    cluster.on('listening', onListening);
    cluster.on('exit', onEarlyExit);
  });
  if (!started || stopping) return;

  cluster.on('exit', (worker, code, signal) => {
    const ranMs = Date.now() - (startedAt.get(worker) ?? 0);
    startedAt.delete(worker);
    if (stopping) return;
    if (ranMs >= RESTART_STABLE_MS) restartDelayMs = RESTART_FIRST_DELAY_MS;
    log.error(
      { pid: worker.process.pid, code, signal, restartInMs: restartDelayMs },
      'worker died: starting another',
    );
    // not unref'd: with every worker dead this timer is what keeps the primary (and the port) alive
    setTimeout(() => {
      if (!stopping) fork();
    }, restartDelayMs);
    restartDelayMs = Math.min(RESTART_MAX_DELAY_MS, restartDelayMs * 2);
  });

  announceRunning(config, demo, config.webConcurrency);
  if (config.metricsPort !== undefined) {
    const sums = new AggregatorRegistry();
    metricsServer = await serveMetrics(
      { contentType: sums.contentType, metrics: () => sums.clusterMetrics() },
      config.metricsPort,
      config.host,
    );
  }
};
