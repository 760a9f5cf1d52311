/**
 * Baseline for send throughput: a bare `node:http` server that parses the JSON body and does one
 * driver insert into `chats` per request (better-sqlite3 with the server's pragmas, or a pg pool of
 * the server's size), answering `{"id": …}`. No framework, no auth, no transaction, no broadcast.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import pg from 'pg';
import { serveWorker } from './worker-runtime.js';

export interface RawInsertOptions {
  driver: 'sqlite' | 'postgres';
  /** DATABASE_URL (sqlite:<file> or postgres://…). */
  url: string;
}

interface Body {
  messenger_user: number;
  sender_id: number;
  receiver_id: number;
  job_id: number | null;
  message: string;
  client_id?: string;
}

const INSERT =
  'insert into chats (messenger_user_id, sender_id, receiver_id, job_id, message, client_id, created_at, seen_at) values ';

let server: http.Server | undefined;
let close: () => Promise<void> = async () => undefined;

const listen = async (options: RawInsertOptions): Promise<{ port: number }> => {
  let insert: (body: Body) => Promise<number>;
  if (options.driver === 'sqlite') {
    const db = new Database(options.url.slice('sqlite:'.length));
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 1000');
    const statement = db.prepare(`${INSERT}(?, ?, ?, ?, ?, ?, ?, null)`);
    insert = async (body) =>
      Number(
        statement.run(
          body.messenger_user,
          body.sender_id,
          body.receiver_id,
          body.job_id,
          body.message,
          body.client_id ?? null,
          new Date().toISOString(),
        ).lastInsertRowid,
      );
    close = async () => {
      db.close();
    };
  } else {
    const pool = new pg.Pool({ connectionString: options.url, max: 10 });
    pool.on('error', () => undefined);
    insert = async (body) => {
      const result = await pool.query<{ id: number }>(
        `${INSERT}($1, $2, $3, $4, $5, $6, $7, null) returning id`,
        [
          body.messenger_user,
          body.sender_id,
          body.receiver_id,
          body.job_id,
          body.message,
          body.client_id ?? null,
          new Date().toISOString(),
        ],
      );
      return result.rows[0]?.id ?? 0;
    };
    close = () => pool.end();
  }
  server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let body: Body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString()) as Body;
      } catch {
        response.writeHead(400).end();
        return;
      }
      insert(body).then(
        (id) => {
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
