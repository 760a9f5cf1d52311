/**
 * The one driver insert into `chats` that the baselines do per send (the bare node:http server of
 * send-throughput, the Socket.IO peer of send-to-deliver): better-sqlite3 with the server's
 * pragmas, or a pg pool of the server's size. Kept in one place so every baseline pays the same
 * database cost, and none pays more than one insert.
 */
import type http from 'node:http';
import Database from 'better-sqlite3';
import pg from 'pg';

export interface RawInsertOptions {
  driver: 'sqlite' | 'postgres';
  /** DATABASE_URL (sqlite:<file> or postgres://…). */
  url: string;
}

/** The JSON body of a send, as POST /user/send/message takes it plus the sender (no auth here). */
export interface RawSendBody {
  messenger_user: number;
  sender_id: number;
  receiver_id: number;
  job_id: number | null;
  message: string;
  client_id?: string;
}

export interface RawInsertedRow {
  id: number;
  /** The `created_at` stored with the row (ISO text). */
  createdAt: string;
}

export interface RawInsert {
  insert: (body: RawSendBody) => Promise<RawInsertedRow>;
  close: () => Promise<void>;
}

const INSERT =
  'insert into chats (messenger_user_id, sender_id, receiver_id, job_id, message, client_id, created_at, seen_at) values ';

const values = (body: RawSendBody, createdAt: string) => [
  body.messenger_user,
  body.sender_id,
  body.receiver_id,
  body.job_id,
  body.message,
  body.client_id ?? null,
  createdAt,
];

export const createRawInsert = (options: RawInsertOptions): RawInsert => {
  if (options.driver === 'sqlite') {
    const db = new Database(options.url.slice('sqlite:'.length));
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 1000');
    const statement = db.prepare(`${INSERT}(?, ?, ?, ?, ?, ?, ?, null)`);
    return {
      insert: async (body) => {
        const createdAt = new Date().toISOString();
        const id = Number(statement.run(...values(body, createdAt)).lastInsertRowid);
        return { id, createdAt };
      },
      close: async () => {
        db.close();
      },
    };
  }
  const pool = new pg.Pool({ connectionString: options.url, max: 10 });
  pool.on('error', () => undefined);
  return {
    insert: async (body) => {
      const createdAt = new Date().toISOString();
      const result = await pool.query<{ id: number }>(
        `${INSERT}($1, $2, $3, $4, $5, $6, $7, null) returning id`,
        values(body, createdAt),
      );
      return { id: result.rows[0]?.id ?? 0, createdAt };
    },
    close: () => pool.end(),
  };
};

/**
 * Reads a send's JSON body from `request`, stores it with one insert and hands the row to
 * `answer`; 400 for a body that is not JSON, 500 when the insert fails.
 */
export const insertFromRequest = (
  raw: RawInsert,
  request: http.IncomingMessage,
  response: http.ServerResponse,
  answer: (body: RawSendBody, row: RawInsertedRow) => void,
): void => {
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
      (row) => answer(body, row),
      (error: unknown) => {
        response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
      },
    );
  });
};
