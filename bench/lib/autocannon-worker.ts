/**
 * HTTP load generator (run with `node --import tsx`, driven by spawn.ts): one autocannon run per
 * request. Send bodies rotate over many conversations and alternate the direction, each with a fresh
 * message text and client_id, so no two requests are the same message.
 */
import { randomUUID } from 'node:crypto';
import autocannon, { type Request } from 'autocannon';
import type { ConversationSpec } from './delivery-client-worker.js';
import { serveWorker } from './worker-runtime.js';

export interface LoadRequest {
  /** http://127.0.0.1:port */
  url: string;
  path: string;
  method: 'GET' | 'POST';
  connections: number;
  durationSeconds: number;
  headers?: Record<string, string>;
  /** Send bodies rotating over conversations (with Bearer tokens); `raw` adds sender_id for the baseline. */
  send?: { conversations: ConversationSpec[]; raw: boolean };
  /** Rotating GET paths (e.g. initial data with different job filters). */
  paths?: string[];
  /** Open loop at this many requests per second (autocannon corrects for coordinated omission). */
  overallRate?: number;
}

export interface LoadResult {
  connections: number;
  durationSeconds: number;
  requests: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** 2xx responses per second. */
  okPerSecond: number;
  latency: { p50: number; p90: number; p99: number; max: number; mean: number };
  statuses: Record<string, number>;
}

let counter = 0;

const run = async (request: LoadRequest): Promise<LoadResult> => {
  const headers = { accept: 'application/json', ...request.headers };
  const requests: Request[] = [];
  if (request.send) {
    const { conversations, raw } = request.send;
    const n = conversations.length;
    requests.push({
      setupRequest: (data) => {
        const seq = counter++;
        const conversation = conversations[seq % n]!;
        const forward = Math.floor(seq / n) % 2 === 0;
        const from = forward ? conversation.a : conversation.b;
        const to = forward ? conversation.b : conversation.a;
        const body = {
          receiver_id: to.id,
          messenger_user: conversation.id,
          job_id: conversation.jobId,
          message: `t:${seq} throughput message from ${from.id}`,
          client_id: randomUUID(),
          ...(raw ? { sender_id: from.id } : {}),
        };
        return {
          ...data,
          method: 'POST',
          path: request.path,
          headers: {
            ...headers,
            'content-type': 'application/json',
            authorization: `Bearer ${from.token}`,
          },
          body: JSON.stringify(body),
        };
      },
    });
  } else if (request.paths && request.paths.length > 0) {
    const paths = request.paths;
    requests.push({
      setupRequest: (data) => ({
        ...data,
        method: request.method,
        path: paths[counter++ % paths.length]!,
        headers,
      }),
    });
  } else {
    requests.push({ method: request.method, path: request.path, headers });
  }
  const result = await autocannon({
    url: request.url,
    connections: request.connections,
    duration: request.durationSeconds,
    requests,
    timeout: 20,
    ...(request.overallRate ? { overallRate: request.overallRate } : {}),
  });
  const statuses: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {}))
    statuses[code] = count ?? 0;
  return {
    connections: request.connections,
    durationSeconds: result.duration,
    requests: result.requests.total,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    okPerSecond: result['2xx'] / result.duration,
    latency: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
      mean: result.latency.mean,
    },
    statuses,
  };
};

serveWorker({ run: (payload: LoadRequest) => run(payload) });
