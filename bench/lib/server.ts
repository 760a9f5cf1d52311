import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DialectName } from '../../src/server/db/database.js';
import { settings } from '../../test-support/settings.js';
import {
  startServer,
  uniqueAppId,
  UNLIMITED_SENDING,
  type ServerProcess,
} from '../../test-support/server-process.js';

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

/** A `kB` field of /proc/<pid>/status (VmRSS: resident now, VmHWM: its peak), in bytes. */
export const readStatusBytes = (pid: number, field: 'VmRSS' | 'VmHWM'): number => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
};

const CLOCK_TICKS = 100;

export const readCpuSeconds = (pid: number): number => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may contain spaces): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
};

/** Parent pid of every process, from /proc (processes that end meanwhile are left out). */
const parentPids = (): Map<number, number> => {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(fields[1]));
    } catch {
      // the process ended meanwhile
    }
  }
  return parents;
};

/** `pid` and every process below it (a clustered server's workers), `pid` first. */
export const processTree = (pid: number, parents: Map<number, number> = parentPids()): number[] => {
  const tree = [pid];
  for (let i = 0; i < tree.length; i += 1)
    for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child);
  return tree;
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

/** CPU time used so far by every process with this command name (e.g. all `postgres` processes). */
export const readCommandCpuSeconds = (command: string): number => {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (name !== command) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
};

/** CPU time used so far by the database's own processes: PostgreSQL's; 0 for SQLite (in the server). */
export const readDatabaseCpuSeconds = (dialect: DialectName): number =>
  dialect === 'postgres' ? readCommandCpuSeconds('postgres') : 0;

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
