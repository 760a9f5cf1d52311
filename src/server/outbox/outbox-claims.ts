import { WorkerStopped } from './outbox-attempt.js';
import type { OutboxRegistration } from './outbox-handlers.js';
import type { Outbox, OutboxTask } from './outbox.js';

/** A task whose attempt is under way in this worker. */
export interface RunningTask {
  kind: string;
  done: Promise<void>;
  abort: AbortController;
}

export interface ClaimParts {
  outbox: Outbox;
  workerId: string;
  leaseMs: number;
  /** The worker's slots: handlers running at once. */
  concurrency: number;
  registrations: ReadonlyMap<string, OutboxRegistration>;
  /** Filled as tasks start, emptied as they end. */
  running: Map<number, RunningTask>;
  run: (task: OutboxTask, abort: AbortController) => Promise<void>;
  /** After a task ended and left `running` (a slot is free). */
  onSlotFreed: () => void;
}

/**
 * Claims what is due and free slots allow, starts it; `full`: a claim got all it asked for, so
 * more may be due. Kinds without a concurrency of their own share one claim; a kind with one is
 * claimed alone, within what it has left.
 */
export const createClaimAndRun =
  ({
    outbox,
    workerId,
    leaseMs,
    concurrency,
    registrations,
    running,
    run,
    onSlotFreed,
  }: ClaimParts) =>
  async (): Promise<{
    claimed: number;
    full: boolean;
    done: Promise<void>;
  }> => {
    const started: Promise<void>[] = [];
    let full = false;
    const claimFor = async (kinds: string[], limit: number) => {
      if (limit <= 0 || kinds.length === 0) return;
      const tasks = await outbox.claim(workerId, kinds, limit, leaseMs);
      if (tasks.length === limit) full = true;
      for (const task of tasks) {
        const abort = new AbortController();
        const done = run(task, abort).finally(() => {
          running.delete(task.id);
          onSlotFreed();
        });
        running.set(task.id, { kind: task.kind, done, abort });
        started.push(done);
      }
    };
    const shared: string[] = [];
    const limited: [string, number][] = [];
    for (const [kind, registration] of registrations) {
      if (registration.concurrency >= concurrency) shared.push(kind);
      else limited.push([kind, registration.concurrency]);
    }
    await claimFor(shared, concurrency - running.size);
    for (const [kind, limit] of limited) {
      let runningOfKind = 0;
      for (const entry of running.values()) if (entry.kind === kind) runningOfKind += 1;
      await claimFor([kind], Math.min(concurrency - running.size, limit - runningOfKind));
    }
    return { claimed: started.length, full, done: Promise.all(started).then(() => undefined) };
  };

/**
 * A stop: waits for the running attempts up to `timeoutMs`; those still running then are aborted
 * (each attempt hands its task back) and waited for.
 */
export const stopRunning = async (
  running: ReadonlyMap<number, RunningTask>,
  timeoutMs: number,
): Promise<void> => {
  if (running.size === 0) return;
  let wait: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all([...running.values()].map((entry) => entry.done)),
    new Promise((resolve) => (wait = setTimeout(resolve, timeoutMs))),
  ]);
  clearTimeout(wait);
  const cutShort = [...running.values()];
  for (const entry of cutShort) entry.abort.abort(new WorkerStopped());
  await Promise.all(cutShort.map((entry) => entry.done));
};
