/**
 * Baseline for upload throughput: a bare `node:http` server that streams each request body into a
 * temporary file (`pipeline` to `fs.createWriteStream`) and answers 201 with the byte count. No
 * framework, no multipart parsing, no auth, no judging of the bytes, no thumbnail, no storage.
 */
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { closeServer, listenLocal, sendJson } from './bare-http.js';
import { serveWorker } from './worker-runtime.js';

let server: http.Server | undefined;
let dir: string | undefined;
let next = 0;

const listen = async (): Promise<{ port: number; pid: number }> => {
  dir = mkdtempSync(join(tmpdir(), 'bench-raw-upload-'));
  const into = dir;
  server = http.createServer((request, response) => {
    const path = join(into, `upload-${(next += 1)}`);
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
    });
    pipeline(request, createWriteStream(path)).then(
      () => {
        rmSync(path, { force: true });
        sendJson(response, 201, { size });
      },
      (error: unknown) => {
        rmSync(path, { force: true });
        response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
      },
    );
  });
  return { port: await listenLocal(server), pid: process.pid };
};

serveWorker({ listen: () => listen() }, async () => {
  await closeServer(server);
  if (dir) rmSync(dir, { recursive: true, force: true });
});
