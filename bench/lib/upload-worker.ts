/**
 * Upload load generator (run with `node --import tsx`, driven by spawn.ts): multipart uploads of
 * one file each (field `file`), `concurrency` at a time, each timed from the first byte written to
 * the answer read. The body is built once per run and streamed from memory.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { httpCall } from './http-call.js';
import { serveWorker } from './worker-runtime.js';

export interface UploadRunRequest {
  url: string;
  path: string;
  /** Headers of each upload, round robin (one user per entry: per-user rate limits). */
  headersByUser: Record<string, string>[];
  fileBytes: number;
  count: number;
  concurrency: number;
}

export interface UploadRunResult {
  seconds: number;
  /** Each upload's time, in ms. */
  times: number[];
  statuses: Record<string, number>;
  errors: string[];
}

const BOUNDARY = '----benchupload7MA4YWxkTrZu0gW';

/** A PDF as `file-type` judges it: the header, then random-looking filler. */
const pdfBody = (fileBytes: number): { head: Buffer; file: Buffer; tail: Buffer } => {
  const file = randomBytes(fileBytes);
  file.write('%PDF-1.4\n');
  return {
    head: Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="cv.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    file,
    tail: Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  };
};

const run = async (request: UploadRunRequest): Promise<UploadRunResult> => {
  const base = new URL(request.url);
  const body = pdfBody(request.fileBytes);
  const length = body.head.length + body.file.length + body.tail.length;
  const agent = new http.Agent({ keepAlive: true, maxSockets: request.concurrency });
  const times: number[] = [];
  const statuses: Record<string, number> = {};
  const errors: string[] = [];
  let issued = 0;
  const one = async (index: number) => {
    try {
      const answer = await httpCall(agent, base, {
        method: 'POST',
        path: request.path,
        headers: {
          ...request.headersByUser[index % request.headersByUser.length],
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          'content-length': String(length),
        },
        chunks: [body.head, body.file, body.tail],
      });
      times.push(answer.ms);
      const status = String(answer.status);
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (answer.status !== 201 && errors.length < 5)
        errors.push(`${status} ${answer.body.toString().slice(0, 200)}`);
    } catch (error) {
      statuses['0'] = (statuses['0'] ?? 0) + 1;
      if (errors.length < 5) errors.push(error instanceof Error ? error.message : String(error));
    }
  };
  const started = performance.now();
  await Promise.all(
    Array.from({ length: request.concurrency }, async () => {
      while (issued < request.count) {
        const index = issued;
        issued += 1;
        await one(index);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return { seconds, times, statuses, errors };
};

serveWorker({ run: (request: UploadRunRequest) => run(request) });
