import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SqliteDatabase from 'better-sqlite3';

/**
 * SQLite in WAL mode copies the log back into the database file (a checkpoint) inside whichever
 * commit pushes the log past 1,000 pages: that commit then pays for the copy and its fsyncs, a stall
 * of milliseconds on the request path. Here a worker thread with a connection of its own runs
 * `PASSIVE` checkpoints (they never block the writer) every `intervalMs`, and the server's
 * connection checkpoints by itself only past `maxLogFrames` pages: under commits without a pause
 * the worker never copies the whole log, so the log could never start over and would grow without
 * bound; the commit that crosses the limit copies what the worker has not. Should the worker fail
 * or stop, the connection goes back to SQLite's default of 1,000 pages.
 */
export interface SqliteCheckpointer {
  /** Ends the worker and closes its connection (before the server's connection closes). */
  stop: () => Promise<void>;
  /** Resolves after the worker has run one more checkpoint (tests). */
  checkpointNow: () => Promise<CheckpointResult>;
}

export interface CheckpointResult {
  /** Frames in the log, and how many of them are now in the database file. */
  log: number;
  checkpointed: number;
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
let lastReport = 0;
const checkpoint = () => {
  try {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)');
    return { log: row.log, checkpointed: row.checkpointed };
  } catch (error) {
    // said once a minute at most: a checkpoint that keeps failing lets the log grow
    if (Date.now() - lastReport > 60000) {
      lastReport = Date.now();
      parentPort.postMessage({ type: 'failed', message: String(error && error.message) });
    }
    return { log: -1, checkpointed: -1 };
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message.type === 'checkpoint') {
    parentPort.postMessage({ type: 'checkpointed', id: message.id, result: checkpoint() });
  } else if (message.type === 'stop') {
    clearInterval(timer);
    db.close();
    parentPort.close();
  }
});
`;

const driverPath = createRequire(import.meta.url).resolve('better-sqlite3');

export const startSqliteCheckpointer = (
  connection: SqliteDatabase.Database,
  file: string,
  {
    intervalMs = 100,
    maxLogFrames = 10_000,
    onProblem = () => undefined,
  }: {
    intervalMs?: number;
    maxLogFrames?: number;
    /** Told when a checkpoint fails and when the worker stops unasked (for the server's log). */
    onProblem?: (message: string) => void;
  } = {},
): SqliteCheckpointer => {
  connection.pragma(`wal_autocheckpoint = ${maxLogFrames}`);
  let running = true;
  const waiting = new Map<
    number,
    { resolve: (result: CheckpointResult) => void; reject: (error: Error) => void }
  >();
  let stopping = false;
  const backToAutomatic = (error?: unknown) => {
    if (!running) return;
    running = false;
    if (!stopping)
      onProblem(
        `SQLite checkpoint worker stopped${error instanceof Error ? ` (${error.message})` : ''}; back to automatic checkpoints`,
      );
    if (connection.open) connection.pragma('wal_autocheckpoint = 1000');
    for (const { reject } of waiting.values()) reject(new Error('The checkpointer has stopped'));
    waiting.clear();
  };
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver: driverPath, file, intervalMs },
  });
  // The worker is housekeeping: it must not keep a finished process alive.
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('error', backToAutomatic);
  worker.once('exit', () => backToAutomatic());

  let nextId = 0;
  worker.on(
    'message',
    (message: { type: string; id?: number; result?: CheckpointResult; message?: string }) => {
      if (message.type === 'failed')
        onProblem(`SQLite checkpoint failed: ${message.message ?? ''}`);
      if (message.type !== 'checkpointed' || message.id === undefined || !message.result) return;
      waiting.get(message.id)?.resolve(message.result);
      waiting.delete(message.id);
    },
  );

  return {
    checkpointNow: () =>
      new Promise<CheckpointResult>((resolve, reject) => {
        if (!running) {
          reject(new Error('The checkpointer has stopped'));
          return;
        }
        nextId += 1;
        waiting.set(nextId, { resolve, reject });
        worker.postMessage({ type: 'checkpoint', id: nextId });
      }),
    stop: async () => {
      if (!running) return;
      stopping = true;
      // Its connection closes before the server's: the last connection to close checkpoints the
      // log and removes it.
      worker.postMessage({ type: 'stop' });
      const timeout = setTimeout(() => void worker.terminate(), 2000);
      await exited;
      clearTimeout(timeout);
    },
  };
};
