/**
 * Sequential timed requests (run with `node --import tsx`, driven by spawn.ts): one request at a time,
 * each timed from the first byte written to the last byte of the body read, into an HDR histogram.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { createHistogram, encodeHistogram, recordMs } from './histogram.js';
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

const once = (
  base: URL,
  headers: Record<string, string>,
  request: TimedRequest,
): Promise<{ status: number; bytes: number; ms: number; text: string }> =>
  new Promise((resolve, reject) => {
    const body = request.body === undefined ? undefined : JSON.stringify(request.body);
    const started = performance.now();
    const call = http.request(
      {
        host: base.hostname,
        port: base.port,
        path: request.path,
        method: request.method,
        agent,
        headers: {
          ...headers,
          ...(body === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const ms = performance.now() - started;
          const buffer = Buffer.concat(chunks);
          resolve({
            status: response.statusCode ?? 0,
            bytes: buffer.length,
            ms,
            text: response.statusCode === 200 ? '' : buffer.toString().slice(0, 300),
          });
        });
        response.on('error', reject);
      },
    );
    call.setTimeout(30_000, () => call.destroy(new Error('request timeout')));
    call.on('error', reject);
    call.end(body);
  });

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
    const result = await once(base, request.headers, item);
    if (index < request.warmup) continue;
    recordMs(histogram, result.ms);
    statuses[result.status] = (statuses[result.status] ?? 0) + 1;
    if (result.status !== 200 && errors.length < 5) errors.push(`${result.status} ${result.text}`);
    min = Math.min(min, result.bytes);
    max = Math.max(max, result.bytes);
    total += result.bytes;
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
