/**
 * Baseline for send throughput: a bare `node:http` server that parses the JSON body and does one
 * driver insert into `chats` per request (raw-insert.ts: better-sqlite3 with the server's pragmas,
 * or a pg pool of the server's size), answering `{"id": …}`. No framework, no auth, no
 * transaction, no broadcast.
 */
import http from 'node:http';
import { closeServer, listenLocal, sendJson } from './bare-http.js';
import { createRawInsert, insertFromRequest, type RawInsertOptions } from './raw-insert.js';
import { serveWorker } from './worker-runtime.js';

let server: http.Server | undefined;
let close: () => Promise<void> = async () => undefined;

const listen = async (options: RawInsertOptions): Promise<{ port: number }> => {
  const raw = createRawInsert(options);
  close = raw.close;
  server = http.createServer((request, response) =>
    insertFromRequest(raw, request, response, (_body, { id }) => sendJson(response, 200, { id })),
  );
  return { port: await listenLocal(server) };
};

serveWorker({ listen: (options: RawInsertOptions) => listen(options) }, async () => {
  await closeServer(server);
  await close();
});
