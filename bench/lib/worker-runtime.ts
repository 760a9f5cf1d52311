import type { WorkerReply, WorkerRequest } from './spawn.js';

export type Handler = (payload: never) => unknown;

/**
 * The worker side of spawn.ts: answers requests with the given handlers and exits when the parent
 * disconnects, when told to, or at the deadline (so no generator outlives its run).
 */
export const serveWorker = (
  handlers: Record<string, Handler>,
  onExit?: () => Promise<void> | void,
): void => {
  const reply = (message: WorkerReply) => {
    if (process.connected) process.send?.(message);
  };
  let exiting = false;
  const exit = async (code: number) => {
    if (exiting) return;
    exiting = true;
    try {
      await onExit?.();
    } finally {
      process.exit(code);
    }
  };
  const deadline = Number(process.env.BENCH_WORKER_DEADLINE_MS ?? 600_000);
  setTimeout(() => {
    console.error(`worker deadline of ${deadline} ms reached: exiting`);
    void exit(3);
  }, deadline).unref();
  process.on('disconnect', () => void exit(0));
  process.on('message', (raw: WorkerRequest) => {
    if (raw.type === 'exit') {
      void exit(0);
      return;
    }
    if (raw.type === 'ping') {
      reply({ id: raw.id, ok: true, result: 'pong' });
      return;
    }
    const handler = handlers[raw.type];
    if (!handler) {
      reply({ id: raw.id, ok: false, error: `unknown request ${raw.type}` });
      return;
    }
    Promise.resolve()
      .then(() => handler(raw.payload as never))
      .then(
        (result) => reply({ id: raw.id, ok: true, result: result ?? null }),
        (error: unknown) =>
          reply({
            id: raw.id,
            ok: false,
            error: error instanceof Error ? (error.stack ?? error.message) : String(error),
          }),
      );
  });
};
