import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serverEnvironment, settings } from './settings.js';

const MAIN = resolve(import.meta.dirname, '../dist/server/main.js');

export const freePort = (): Promise<number> =>
  new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolvePort(address.port)
          : reject(new Error('no port')),
      );
    });
  });

/**
 * A fresh Pusher app id: it names the Redis fan-out channel, so instances of different tests never
 * share one (the instances of one deployment share theirs).
 */
export const uniqueAppId = (prefix: string): string =>
  `${prefix}-${process.pid}-${randomBytes(4).toString('hex')}`;

/** Credentials of a Pusher app of its own (the app id as `uniqueAppId`). */
export const pusherCredentials = (prefix = 'app') => ({
  appId: uniqueAppId(prefix),
  key: `key-${randomBytes(6).toString('hex')}`,
  secret: randomBytes(24).toString('hex'),
});

/** Sending without rate limits, for tests and benchmarks that are not about them. */
export const UNLIMITED_SENDING = {
  SEND_RATE_BURST: '1000000',
  SEND_RATE_PER_SECOND: '1000000',
  SEND_RATE_CONVERSATION_BURST: '1000000',
  SEND_RATE_CONVERSATION_PER_SECOND: '1000000',
} as const;

export interface ServerProcess {
  port: number;
  url: string;
  child: ChildProcess;
  /** What the process printed (stdout + stderr), for diagnostics. */
  output: () => string;
  /** SIGTERM and wait for the exit (graceful shutdown). */
  stop: () => Promise<number | null>;
  /** SIGKILL and wait for the exit (a crash). */
  kill: () => Promise<void>;
}

/**
 * The settings whose defaults point into `./data` (the database, uploads, e-mails), pointed into
 * `sandbox` instead.
 */
export const sandboxedDefaults = (sandbox: string): Record<string, string> => ({
  DATABASE_URL: `sqlite:${join(sandbox, 'messenger.db')}`,
  STORAGE_URL: `file:${join(sandbox, 'uploads')}`,
  MAIL_DIR: join(sandbox, 'mail'),
});

/**
 * TEST_SERVER_WORKERS above 1: the server runs that many workers, through Redis (a fan-out channel
 * of its own unless the caller names one); not for a test that sets its own WEB_CONCURRENCY or runs
 * without Redis on purpose (`REDIS_URL: ''`).
 */
const workersAsked = (env: Record<string, string>): Record<string, string> =>
  settings.serverWorkers > 1 && env.WEB_CONCURRENCY === undefined && env.REDIS_URL !== ''
    ? {
        WEB_CONCURRENCY: String(settings.serverWorkers),
        // each worker has its own pools (requests, background thread): the tests' servers together
        // stay under PostgreSQL's 100 connections
        DATABASE_POOL_SIZE: '4',
        OUTBOX_CONCURRENCY: '3',
        REDIS_URL: settings.redisUrl,
        PUSHER_APP_ID: uniqueAppId('workers'),
      }
    : {};

export interface StartServerOptions {
  env?: Record<string, string>;
  port?: number;
  /**
   * How long to wait for the "running at" line (for one process: with TEST_SERVER_WORKERS above 1,
   * each worker loads and connects on the same cores, so the wait grows with their number).
   */
  timeoutMs?: number;
  /** The working directory (default: this one, the checkout, where `dist/web` is found). */
  cwd?: string;
}

/**
 * Starts the built server (`dist/server/main.js`, run `npm run build:server` first) as a real child
 * process and resolves once it listens. Used by the realtime, browser, fault and benchmark tests.
 */
export const startServer = async (options: StartServerOptions = {}): Promise<ServerProcess> => {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`npm run build\` first`);
  const port = options.port ?? (await freePort());
  let output = '';
  // A folder of its own for everything the server would otherwise keep under the checkout's ./data
  // (a developer's demo database from `npm start`, its uploads and e-mails): a test server touches
  // none of them. A caller's own DATABASE_URL, STORAGE_URL or MAIL_DIR wins.
  const sandbox = mkdtempSync(join(tmpdir(), 'messenger-server-'));
  const workers = workersAsked(options.env ?? {});
  const processes = Number(options.env?.WEB_CONCURRENCY ?? workers.WEB_CONCURRENCY ?? 1);
  const startWaitMs = (options.timeoutMs ?? 20_000) * Math.max(1, processes || 1);
  const child = spawn(process.execPath, [MAIN], {
    env: serverEnvironment({
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      // nothing balances onto a test server: it stops at once unless a test asks for a drain
      SHUTDOWN_DELAY_SECONDS: '0',
      ...sandboxedDefaults(sandbox),
      ...workers,
      ...options.env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
  const exited = new Promise<number | null>((resolveExit) =>
    child.once('exit', (code) => {
      rmSync(sandbox, { recursive: true, force: true });
      resolveExit(code);
    }),
  );
  await new Promise<void>((resolveReady, reject) => {
    const timer = setTimeout(() => {
      // not left running (with its workers) to load the machine for the tests after it
      if (child.pid !== undefined) spawnSync('pkill', ['-KILL', '-P', String(child.pid)]);
      child.kill('SIGKILL');
      reject(new Error(`server did not start in time:\n${output}`));
    }, startWaitMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Messenger is running at')) {
        clearTimeout(timer);
        resolveReady();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
    kill: async () => {
      if (child.exitCode === null) {
        // a crash: a cluster's workers are killed too, not left to notice the primary is gone
        if (child.pid !== undefined) spawnSync('pkill', ['-KILL', '-P', String(child.pid)]);
        child.kill('SIGKILL');
      }
      await exited;
    },
  };
};
