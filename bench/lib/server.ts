import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { settings } from '../../test-support/settings.js';
import {
  startServer,
  uniqueAppId,
  UNLIMITED_SENDING,
  type ServerProcess,
} from '../../test-support/server-process.js';
import { processTree, readCpuSeconds, readStatusBytes } from './proc.js';

/** Credentials of every benchmark server (custom, so the servers run with NODE_ENV=production). */
export const BENCH_APP_KEY = 'bench-app-key';
export const BENCH_PUSHER_KEY = 'bench-pusher-key';
export const BENCH_PUSHER_SECRET = 'bench-pusher-secret';

export interface BenchServer extends ServerProcess {
  wsUrl: string;
  /** Resident set size of the server process and its worker processes, from /proc. */
  rssBytes: () => number;
  /** CPU time (user + system) the server process and its workers have used so far, from /proc. */
  cpuSeconds: () => number;
  /** How the process ended, when it has (`exited with code 1`, `killed by SIGSEGV`); else null. */
  ended: () => string | null;
}

export interface StartBenchServerOptions {
  databaseUrl: string;
  redisUrl?: string | undefined;
  /**
   * Pusher app id: also names the Redis fan-out channel, so a run never crosses events with other
   * servers on the same Redis. Instances of one deployment share it.
   */
  appId?: string;
  profileDir?: string | undefined;
  env?: Record<string, string>;
}

/**
 * The options of a server with `workers` worker processes sharing its port (`WEB_CONCURRENCY`).
 * More than one needs Redis for the fan-out between them, with an app id of its own, so that the
 * run never crosses events with other servers on the same Redis.
 */
export const workerServerOptions = (
  workers: number,
): Pick<StartBenchServerOptions, 'redisUrl' | 'appId' | 'env'> =>
  workers > 1
    ? {
        redisUrl: settings.redisUrl,
        appId: uniqueAppId('bench'),
        env: { WEB_CONCURRENCY: String(workers) },
      }
    : {};

/** In-process CPU profiler loaded through NODE_OPTIONS (`--cpu-prof` itself is not allowed there). */
const PROFILE_PRELOAD = `import { Session } from 'node:inspector';
import { mkdirSync, writeFileSync } from 'node:fs';
const dir = process.env.BENCH_CPU_PROFILE_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 250 });
  session.post('Profiler.start');
  process.on('exit', () => {
    session.post('Profiler.stop', (error, result) => {
      if (error) return;
      mkdirSync(dir, { recursive: true });
      writeFileSync(dir + '/server-' + process.pid + '-' + Date.now() + '.cpuprofile', JSON.stringify(result.profile));
    });
  });
}
`;

const preloadUrl = (): string => {
  const file = join(tmpdir(), 'bench-cpu-profile-preload.mjs');
  let current = '';
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    // written below
  }
  if (current !== PROFILE_PRELOAD) writeFileSync(file, PROFILE_PRELOAD);
  return pathToFileURL(file).href;
};

/** Sums `read` over `pid`'s process tree; a process that ended between listing and reading counts 0. */
const overTree = (pid: number, read: (pid: number) => number): number =>
  processTree(pid).reduce((sum, member) => {
    try {
      return sum + read(member);
    } catch {
      return sum;
    }
  }, 0);

/** The built server (dist/server/main.js) as a child process, tuned for load: no demo data, no send or socket limits. */
export const startBenchServer = async (options: StartBenchServerOptions): Promise<BenchServer> => {
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    DATABASE_URL: options.databaseUrl,
    DEMO_SEED: 'off',
    APP_KEY: BENCH_APP_KEY,
    PUSHER_APP_ID: options.appId ?? uniqueAppId('bench'),
    PUSHER_KEY: BENCH_PUSHER_KEY,
    PUSHER_SECRET: BENCH_PUSHER_SECRET,
    ...UNLIMITED_SENDING,
    // Every benchmark client connects from 127.0.0.1 (10,000 sockets in the full connections run).
    WS_MAX_CONNECTIONS: '1000000',
    WS_MAX_CONNECTIONS_PER_ADDRESS: '1000000',
    WS_FRAME_RATE_BURST: '1000000',
    WS_FRAME_RATE_PER_SECOND: '1000000',
    LOG_LEVEL: 'error',
    REDIS_URL: options.redisUrl ?? '',
    // One process unless the scenario asks for workers (whatever the environment of the run says).
    WEB_CONCURRENCY: '1',
    ...options.env,
  };
  if (options.profileDir) {
    mkdirSync(options.profileDir, { recursive: true });
    env.BENCH_CPU_PROFILE_DIR = options.profileDir;
    env.NODE_OPTIONS = `--import=${preloadUrl()}`;
  }
  const server = await startServer({ env, timeoutMs: 60_000 });
  const pid = server.child.pid ?? 0;
  const { child } = server;
  // A single process reads its own counters (no /proc walk); workers are found anew at each read
  // (one that crashed and was replaced counts from its replacement on).
  const clustered = Number(env.WEB_CONCURRENCY ?? 1) > 1;
  const ended = () =>
    child.exitCode !== null
      ? `exited with code ${child.exitCode}`
      : child.signalCode !== null
        ? `killed by ${child.signalCode}`
        : null;
  /** A /proc reading; once the process is gone, the error says that it ended and how. */
  const reading = (read: () => number) => (): number => {
    try {
      return read();
    } catch (error) {
      const how = ended();
      throw how ? serverCrash(server, how) : error;
    }
  };
  return {
    ...server,
    wsUrl: `ws://127.0.0.1:${server.port}/app/${BENCH_PUSHER_KEY}?protocol=7&client=bench&version=1.0`,
    rssBytes: reading(() =>
      clustered
        ? overTree(pid, (member) => readStatusBytes(member, 'VmRSS'))
        : readStatusBytes(pid, 'VmRSS'),
    ),
    cpuSeconds: reading(() => (clustered ? overTree(pid, readCpuSeconds) : readCpuSeconds(pid))),
    ended,
  };
};

/** The error of a server process that ended by itself: how it ended and the end of its output. */
export const serverCrash = (server: Pick<ServerProcess, 'output'>, how: string): Error =>
  new Error(`the server process ${how} during the run:\n${server.output().slice(-2_000)}`);

/** Query string every messaging call carries. */
export const callQuery = `key=${BENCH_APP_KEY}&token=`;
