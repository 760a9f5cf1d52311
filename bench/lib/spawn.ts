import { fork, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * Load generators and baselines run as their own Node processes (`node --import tsx <file>`), driven
 * over IPC with request/response messages. Each one stops by itself: when its parent goes away, when
 * asked, or at its deadline.
 */

export interface WorkerRequest {
  id: number;
  type: string;
  payload: unknown;
}

export type WorkerReply =
  { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string };

export interface WorkerHandle {
  pid: number;
  /** Sends one request and waits for its reply (rejects if the worker fails or exits first). */
  call: <T>(type: string, payload?: unknown, timeoutMs?: number) => Promise<T>;
  /** Asks the worker to exit; kills it if it has not exited after a grace period. */
  stop: () => Promise<void>;
  output: () => string;
  child: ChildProcess;
}

const LIB = import.meta.dirname;
export const workerPath = (name: string): string => resolve(LIB, name);

export interface SpawnWorkerOptions {
  /** Hard limit of the worker's life; it exits by itself then. */
  deadlineMs: number;
  env?: Record<string, string>;
  /** Extra node flags (e.g. --max-old-space-size). */
  execArgv?: string[];
}

export const spawnWorker = async (
  file: string,
  options: SpawnWorkerOptions,
): Promise<WorkerHandle> => {
  const child = fork(workerPath(file), [], {
    execArgv: ['--import', 'tsx', ...(options.execArgv ?? [])],
    env: { ...process.env, ...options.env, BENCH_WORKER_DEADLINE_MS: String(options.deadlineMs) },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    cwd: resolve(LIB, '../..'),
  });
  let output = '';
  const append = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);

  let nextId = 1;
  const pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }
  >();
  let exited = false;
  const exit = new Promise<void>((resolveExit) => {
    child.once('exit', (code, signal) => {
      exited = true;
      for (const [, entry] of pending) {
        clearTimeout(entry.timer);
        entry.reject(
          new Error(
            `worker ${file} exited (${code ?? signal}) before replying:\n${output.slice(-4000)}`,
          ),
        );
      }
      pending.clear();
      resolveExit();
    });
  });
  child.on('message', (message: WorkerReply) => {
    const entry = pending.get(message.id);
    if (!entry) return;
    pending.delete(message.id);
    clearTimeout(entry.timer);
    if (message.ok) entry.resolve(message.result);
    else entry.reject(new Error(`worker ${file}: ${message.error}`));
  });
  child.on('error', () => undefined);

  const call = <T>(
    type: string,
    payload: unknown = null,
    timeoutMs = options.deadlineMs,
  ): Promise<T> =>
    new Promise<T>((resolveCall, rejectCall) => {
      if (exited) {
        rejectCall(new Error(`worker ${file} has exited:\n${output.slice(-4000)}`));
        return;
      }
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        rejectCall(new Error(`worker ${file}: ${type} did not answer within ${timeoutMs} ms`));
      }, timeoutMs);
      pending.set(id, { resolve: (value) => resolveCall(value as T), reject: rejectCall, timer });
      child.send({ id, type, payload } satisfies WorkerRequest);
    });

  // The worker answers "ready" once its handlers are installed.
  await call('ping', null, 30_000);

  return {
    pid: child.pid ?? 0,
    call,
    output: () => output,
    child,
    stop: async () => {
      if (exited) return;
      if (child.connected)
        child.send({ id: 0, type: 'exit', payload: null } satisfies WorkerRequest);
      const timer = setTimeout(() => {
        if (!exited) child.kill('SIGKILL');
      }, 5_000);
      await exit;
      clearTimeout(timer);
    },
  };
};
