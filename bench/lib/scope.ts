import type { DialectName } from '../../src/server/db/database.js';
import { createBenchDatabase, seedPairs, type BenchDatabase, type SeededPair } from './database.js';
import {
  serverCrash,
  startBenchServer,
  type BenchServer,
  type StartBenchServerOptions,
} from './server.js';
import { spawnWorker, type WorkerHandle } from './spawn.js';

/**
 * The set-up every scenario shares: fresh databases, seeded users, worker processes (load
 * generators and baselines) and servers, each ended when the scenario (or one phase of it) ends,
 * however it ends. The runner gives each scenario a scope.
 */

/** Workers live at most this long unless told otherwise (they exit by themselves then). */
const WORKER_DEADLINE_MS = 600_000;

export interface ScopeServerOptions extends Omit<
  StartBenchServerOptions,
  'databaseUrl' | 'profileDir'
> {
  /**
   * How the server ends with its scope: `stop` (SIGTERM, a graceful shutdown, the default) or
   * `kill` (when the graceful one would only add unmeasured work).
   */
  end?: 'stop' | 'kill';
}

/** Throws when the server process has ended by itself (a crash), so a run never goes on without it. */
export const assertServerUp = (server: BenchServer): void => {
  const crashed = server.ended();
  if (crashed) throw serverCrash(server, crashed);
};

/** What a scenario starts, each stopped when its scope ends (the last started first). */
export interface Scope {
  /** A fresh, migrated database (dropped at the end). */
  database: (dialect: DialectName, label: string) => Promise<BenchDatabase>;
  /**
   * A fresh database with `count` two-person conversations (see `seedPairs`), the harness's own
   * connections closed so that the servers have it.
   */
  seededPairs: (
    dialect: DialectName,
    label: string,
    count: number,
  ) => Promise<{ bench: BenchDatabase; pairs: SeededPair[] }>;
  /** A worker process of bench/lib (`spawn.ts`). */
  worker: (file: string, deadlineMs?: number) => Promise<WorkerHandle>;
  /** A worker that serves something (a baseline server, a sink): started, and its port. */
  listening: (
    file: string,
    options?: unknown,
    deadlineMs?: number,
  ) => Promise<{ worker: WorkerHandle; port: number }>;
  /** The built server on `bench`, writing a CPU profile when the run asks for one. */
  server: (bench: BenchDatabase, options?: ScopeServerOptions) => Promise<BenchServer>;
  /** A scope of its own for one phase: what `body` starts ends when it returns. */
  phase: <T>(body: (scope: Scope) => Promise<T>) => Promise<T>;
  /** Runs `cleanup` at the end (before what was started earlier ends). */
  defer: (cleanup: () => unknown) => void;
}

/**
 * Runs `body` with a scope, then ends everything started in it, the last started first; every
 * cleanup runs even when one fails. The body's error wins over a cleanup's.
 */
export const withScope = async <T>(
  /** When set, every server started in the scope writes a CPU profile here. */
  profileDir: string | undefined,
  body: (scope: Scope) => Promise<T>,
): Promise<T> => {
  const cleanups: (() => unknown)[] = [];
  const defer = (cleanup: () => unknown) => {
    cleanups.push(cleanup);
  };
  const worker = async (file: string, deadlineMs = WORKER_DEADLINE_MS) => {
    const handle = await spawnWorker(file, { deadlineMs });
    defer(() => handle.stop());
    return handle;
  };
  const database = async (dialect: DialectName, label: string) => {
    const bench = await createBenchDatabase(dialect, label);
    defer(() => bench.drop());
    return bench;
  };
  const scope: Scope = {
    database,
    seededPairs: async (dialect, label, count) => {
      const bench = await database(dialect, label);
      const pairs = await seedPairs(bench, count);
      await bench.close();
      return { bench, pairs };
    },
    worker,
    listening: async (file, options, deadlineMs) => {
      const handle = await worker(file, deadlineMs);
      const { port } = await handle.call<{ port: number }>('listen', options ?? null);
      return { worker: handle, port };
    },
    server: async (bench, { end = 'stop', ...options } = {}) => {
      const server = await startBenchServer({
        ...options,
        databaseUrl: bench.url,
        profileDir,
      });
      defer(async () => {
        // A server that died before its scope ended crashed: the scenario fails, whatever it measured.
        assertServerUp(server);
        await (end === 'kill' ? server.kill() : server.stop());
      });
      return server;
    },
    phase: (phaseBody) => withScope(profileDir, phaseBody),
    defer,
  };
  const endAll = async (): Promise<{ error: unknown } | undefined> => {
    let failure: { error: unknown } | undefined;
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch (error) {
        failure ??= { error };
      }
    }
    return failure;
  };
  let result: T;
  try {
    result = await body(scope);
  } catch (error) {
    await endAll();
    throw error;
  }
  const failure = await endAll();
  if (failure) throw failure.error;
  return result;
};
