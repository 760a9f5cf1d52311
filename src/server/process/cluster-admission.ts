import cluster from 'node:cluster';
import { z } from 'zod';
import {
  createConnectionCounter,
  type ConnectionAdmission,
  type ConnectionLimits,
} from '../realtime/connection-admission.js';

/**
 * The instance's socket limits (WS_MAX_CONNECTIONS, WS_MAX_CONNECTIONS_PER_ADDRESS) over all its
 * workers: each worker asks the primary before it opens a socket and tells it when one closes; the
 * primary counts, and forgets a worker's sockets when that worker dies.
 */
const admitSchema = z.object({
  type: z.literal('messenger:admit'),
  id: z.number().int(),
  address: z.string(),
});
const releaseSchema = z.object({ type: z.literal('messenger:release'), address: z.string() });
const answerSchema = z.object({
  type: z.literal('messenger:admitted'),
  id: z.number().int(),
  ok: z.boolean(),
});
type Answer = z.infer<typeof answerSchema>;

/** How long a worker waits for the primary before it refuses the socket (4100: the client retries). */
const ANSWER_TIMEOUT_MS = 2_000;

/** In a worker: the primary decides whether a socket may open. */
export const admissionThroughPrimary = (): ConnectionAdmission => {
  let nextId = 0;
  const waiting = new Map<number, (ok: boolean) => void>();
  const send = (message: z.infer<typeof admitSchema> | z.infer<typeof releaseSchema>) => {
    if (!process.send || !process.connected) return false;
    process.send(message);
    return true;
  };
  process.on('message', (raw: unknown) => {
    const answer = answerSchema.safeParse(raw);
    if (!answer.success) return;
    const settle = waiting.get(answer.data.id);
    waiting.delete(answer.data.id);
    settle?.(answer.data.ok);
  });
  return {
    admit: (address) =>
      new Promise<boolean>((resolve, reject) => {
        nextId += 1;
        const id = nextId;
        const timer = setTimeout(() => {
          // refused here (said as unanswered, not as over capacity); a yes arriving later is
          // handed back at once
          waiting.set(id, (ok) => {
            if (ok) send({ type: 'messenger:release', address });
          });
          reject(new Error(`the primary did not answer within ${ANSWER_TIMEOUT_MS} ms`));
        }, ANSWER_TIMEOUT_MS);
        waiting.set(id, (ok) => {
          clearTimeout(timer);
          resolve(ok);
        });
        if (!send({ type: 'messenger:admit', id, address })) {
          clearTimeout(timer);
          waiting.delete(id);
          resolve(false);
        }
      }),
    release: (address) => void send({ type: 'messenger:release', address }),
  };
};

/** In the primary: counts the sockets of every worker against the instance's limits. */
export const countWorkerSockets = (limits: ConnectionLimits) => {
  const counter = createConnectionCounter(limits);
  /** worker id → client address → sockets it holds */
  const held = new Map<number, Map<string, number>>();
  cluster.on('message', (worker, raw: unknown) => {
    const admit = admitSchema.safeParse(raw);
    if (admit.success) {
      const ok = counter.admit(admit.data.address);
      if (ok) {
        const ofWorker = held.get(worker.id) ?? new Map<string, number>();
        held.set(worker.id, ofWorker);
        ofWorker.set(admit.data.address, (ofWorker.get(admit.data.address) ?? 0) + 1);
      }
      if (worker.isConnected())
        worker.send({ type: 'messenger:admitted', id: admit.data.id, ok } satisfies Answer);
      return;
    }
    const release = releaseSchema.safeParse(raw);
    if (!release.success) return;
    const ofWorker = held.get(worker.id);
    const count = ofWorker?.get(release.data.address) ?? 0;
    if (count === 0) return;
    if (count > 1) ofWorker?.set(release.data.address, count - 1);
    else ofWorker?.delete(release.data.address);
    counter.release(release.data.address);
  });
  // A worker that died closed its sockets with it.
  cluster.on('exit', (worker) => {
    for (const [address, count] of held.get(worker.id) ?? []) counter.release(address, count);
    held.delete(worker.id);
  });
  return counter;
};
