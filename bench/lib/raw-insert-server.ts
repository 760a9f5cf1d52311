/**
 * Baseline for send throughput: a bare `node:http` server that parses the JSON body and does one
 * driver insert into `chats` per request (raw-insert.ts: better-sqlite3 with the server's pragmas,
 * or a pg pool of the server's size), answering `{"id": …}`. No framework, no auth, no
 * transaction, no broadcast.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRawInsert, type RawInsertOptions, type RawSendBody } from './raw-insert.js';
import { serveWorker } from './worker-runtime.js';

let server: http.Server | undefined;
let close: () => Promise<void> = async () => undefined;

const listen = async (options: RawInsertOptions): Promise<{ port: number }> => {
  const raw = createRawInsert(options);
  close = raw.close;
  server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let body: RawSendBody;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString()) as RawSendBody;
      } catch {
        response.writeHead(400).end();
        return;
      }
      raw.insert(body).then(
        ({ id }) => {
          const text = JSON.stringify({ id });
          response
            .writeHead(200, {
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(text),
            })
            .end(text);
        },
        (error: unknown) => {
          response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
        },
      );
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port };
};

serveWorker({ listen: (options: RawInsertOptions) => listen(options) }, async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await close();
});
