/**
 * Sequential timed requests (run with `node --import tsx`, driven by spawn.ts): one request at a time,
 * each timed from the first byte written to the last byte of the body read, into an HDR histogram.
 */
import http from 'node:http';
import { createHistogram, encodeHistogram, recordMs } from './histogram.js';
import { httpCall } from './http-call.js';
import { serveWorker } from './worker-runtime.js';

export interface TimedRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

export interface TimedRunRequest {
  url: string;
  headers: Record<string, string>;
  requests: TimedRequest[];
  /** Requests sent first and not recorded (JIT, caches). */
  warmup: number;
}

export interface TimedRunResult {
  histogram: string;
  statuses: Record<string, number>;
  bytes: { min: number; max: number; mean: number };
  errors: string[];
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

const run = async (request: TimedRunRequest): Promise<TimedRunResult> => {
  const base = new URL(request.url);
  const histogram = createHistogram();
  const statuses: Record<string, number> = {};
  const errors: string[] = [];
  let min = Number.POSITIVE_INFINITY;
  let max = 0;
  let total = 0;
  let counted = 0;
  for (const [index, item] of request.requests.entries()) {
    const result = await httpCall(agent, base, {
      method: item.method,
      path: item.path,
      headers: request.headers,
      json: item.body,
      timeoutMs: 30_000,
    });
    if (index < request.warmup) continue;
    recordMs(histogram, result.ms);
    statuses[result.status] = (statuses[result.status] ?? 0) + 1;
    if (result.status !== 200 && errors.length < 5)
      errors.push(`${result.status} ${result.body.toString().slice(0, 300)}`);
    const bytes = result.body.length;
    min = Math.min(min, bytes);
    max = Math.max(max, bytes);
    total += bytes;
    counted += 1;
  }
  return {
    histogram: encodeHistogram(histogram),
    statuses,
    bytes: { min: counted ? min : 0, max, mean: counted ? total / counted : 0 },
    errors,
  };
};

serveWorker({ run: (payload: TimedRunRequest) => run(payload) });
