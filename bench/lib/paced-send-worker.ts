/**
 * Open-loop sends at a steady rate (run with `node --import tsx`, driven by spawn.ts): send i is
 * fired at start + i/rate whatever the earlier ones' answers, through POST /user/send/message with
 * the sender's Bearer token; each one is timed from the first byte written to the last byte of the
 * answer read (HDR histogram, µs) and its stored message's id and created_at are kept.
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { paths } from '../../src/shared/paths.js';
import { createHistogram, encodeHistogram, recordMs } from './histogram.js';
import { serveWorker } from './worker-runtime.js';

export interface PacedSend {
  conversationId: number;
  jobId: number;
  receiverId: number;
  senderToken: string;
}

export interface PacedSendRequest {
  url: string;
  /** Query string of every call (the app key). */
  query: string;
  sends: PacedSend[];
  /** Sends per second. */
  rate: number;
}

export interface PacedSendResult {
  /** Send latencies, µs (encoded HDR histogram). */
  histogram: string;
  ok: number;
  failed: number;
  statuses: Record<string, number>;
  errors: string[];
  /** By send index: the stored message (null when the send failed). */
  stored: ({ chatId: number; createdAt: string } | null)[];
  /** How late the last send was fired against its schedule, ms (the generator kept up if small). */
  maxFireLagMs: number;
  seconds: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

const post = (
  base: URL,
  path: string,
  body: unknown,
  token: string,
): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const text = JSON.stringify(body);
    const request = http.request(
      {
        host: base.hostname,
        port: base.port,
        path,
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'content-length': Buffer.byteLength(text),
          authorization: `Bearer ${token}`,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        );
        response.on('error', reject);
      },
    );
    request.setTimeout(30_000, () => request.destroy(new Error('request timeout')));
    request.on('error', reject);
    request.end(text);
  });

const run = async (request: PacedSendRequest): Promise<PacedSendResult> => {
  const base = new URL(request.url);
  const path = `${paths.sendMessage}?${request.query}`;
  const histogram = createHistogram();
  const statuses: Record<string, number> = {};
  const errors: string[] = [];
  const stored: PacedSendResult['stored'] = request.sends.map(() => null);
  const inflight = new Set<Promise<void>>();
  let ok = 0;
  let failed = 0;
  let maxFireLagMs = 0;

  const fire = (index: number, scheduledAt: number) => {
    const send = request.sends[index] as PacedSend;
    const started = performance.now();
    maxFireLagMs = Math.max(maxFireLagMs, started - scheduledAt);
    const call = post(
      base,
      path,
      {
        receiver_id: send.receiverId,
        messenger_user: send.conversationId,
        job_id: send.jobId,
        message: `Notify bench message ${index} for receiver ${send.receiverId}`,
        client_id: randomUUID(),
      },
      send.senderToken,
    ).then(
      (result) => {
        recordMs(histogram, performance.now() - started);
        statuses[result.status] = (statuses[result.status] ?? 0) + 1;
        if (result.status === 200) {
          ok += 1;
          const { message } = JSON.parse(result.body) as {
            message: { id: number; created_at: string };
          };
          stored[index] = { chatId: message.id, createdAt: message.created_at };
        } else {
          failed += 1;
          if (errors.length < 10) errors.push(`${result.status} ${result.body.slice(0, 200)}`);
        }
      },
      (error: unknown) => {
        failed += 1;
        statuses.error = (statuses.error ?? 0) + 1;
        if (errors.length < 10) errors.push(error instanceof Error ? error.message : String(error));
      },
    );
    inflight.add(call);
    void call.finally(() => inflight.delete(call));
  };

  const count = request.sends.length;
  const started = performance.now();
  await new Promise<void>((resolveAll) => {
    let next = 0;
    const tick = () => {
      const due = Math.min(
        count,
        Math.floor(((performance.now() - started) * request.rate) / 1000) + 1,
      );
      while (next < due) {
        fire(next, started + (next * 1000) / request.rate);
        next += 1;
      }
      if (next >= count) {
        resolveAll();
        return;
      }
      const nextAt = started + (next * 1000) / request.rate;
      setTimeout(tick, Math.max(0, nextAt - performance.now()));
    };
    tick();
  });
  while (inflight.size > 0) await Promise.all([...inflight]);
  return {
    histogram: encodeHistogram(histogram),
    ok,
    failed,
    statuses,
    errors,
    stored,
    maxFireLagMs: Math.round(maxFireLagMs * 10) / 10,
    seconds: (performance.now() - started) / 1000,
  };
};

serveWorker({ run: (payload: PacedSendRequest) => run(payload) }, () => agent.destroy());
