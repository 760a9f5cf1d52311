import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { loadConfig } from '../../src/server/config.js';

/** A stored chat as the tests compare it. */
export interface StoredChat {
  id: number;
  messenger_user_id: number;
  sender_id: number;
  receiver_id: number;
  message: string;
  client_id: string | null;
}

/** A fresh database for one test file: what the server gets as DATABASE_URL, and direct reads. */
export interface FaultDatabase {
  dialect: 'sqlite' | 'postgres';
  url: string;
  /** PostgreSQL only: the database name (to build a URL through a proxy). */
  name?: string;
  /** Every chat of a conversation (or all), by id. */
  chats(conversationId?: number): Promise<StoredChat[]>;
  /** Renames a user directly in the database (names are not editable through the product). */
  renameUser(email: string, name: string): Promise<void>;
  /** The conversation id of a candidate × company × job (null = no job). */
  conversationId(
    candidateEmail: string,
    companyEmail: string,
    jobId: number | null,
  ): Promise<number>;
  drop(): Promise<void>;
}

const settings = () => loadConfig().test;

const CHAT_COLUMNS = 'id, messenger_user_id, sender_id, receiver_id, message, client_id';
const CONVERSATION_SQL = (placeholder: (n: number) => string) =>
  `select mu.id from messenger_users mu
     join users c on c.id = mu.candidate_id
     join users o on o.id = mu.company_id
    where c.email = ${placeholder(1)} and o.email = ${placeholder(2)} and mu.job_key = ${placeholder(3)}`;

/** A temporary SQLite file; the server process owns writing, the test only reads. */
export const freshSqlite = (): FaultDatabase => {
  const dir = mkdtempSync(join(tmpdir(), 'faults-'));
  const file = join(dir, 'messenger.db');
  const read = <T>(work: (db: SqliteDatabase.Database) => T): T => {
    const db = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
    try {
      return work(db);
    } finally {
      db.close();
    }
  };
  return {
    dialect: 'sqlite',
    url: `sqlite:${file}`,
    chats: async (conversationId) =>
      read((db) =>
        conversationId === undefined
          ? (db.prepare(`select ${CHAT_COLUMNS} from chats order by id`).all() as StoredChat[])
          : (db
              .prepare(`select ${CHAT_COLUMNS} from chats where messenger_user_id = ? order by id`)
              .all(conversationId) as StoredChat[]),
      ),
    conversationId: async (candidate, company, jobId) =>
      read((db) => {
        const row = db.prepare(CONVERSATION_SQL(() => '?')).get(candidate, company, jobId ?? 0) as
          { id: number } | undefined;
        if (!row) throw new Error(`no conversation ${candidate} × ${company} × ${jobId}`);
        return row.id;
      }),
    renameUser: async (email, name) => {
      const db = new SqliteDatabase(file, { fileMustExist: true });
      try {
        db.pragma('busy_timeout = 5000');
        db.prepare('update users set name = ? where email = ?').run(name, email);
      } finally {
        db.close();
      }
    },
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
};

const withClient = async <T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> => {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
};

/** The admin URL with another database name. */
export const postgresUrlFor = (database: string, port?: number): string => {
  const url = new URL(settings().postgresUrl);
  url.pathname = `/${database}`;
  if (port !== undefined) url.port = String(port);
  return url.toString();
};

/** `CREATE DATABASE faults_<random>`; dropped (WITH (FORCE)) by `drop()`. The server migrates it. */
export const freshPostgres = async (): Promise<FaultDatabase> => {
  const name = `faults_${randomBytes(6).toString('hex')}`;
  await withClient(settings().postgresUrl, (admin) => admin.query(`create database ${name}`));
  const url = postgresUrlFor(name);
  return {
    dialect: 'postgres',
    url,
    name,
    chats: (conversationId) =>
      withClient(url, async (client) => {
        const result =
          conversationId === undefined
            ? await client.query<StoredChat>(`select ${CHAT_COLUMNS} from chats order by id`)
            : await client.query<StoredChat>(
                `select ${CHAT_COLUMNS} from chats where messenger_user_id = $1 order by id`,
                [conversationId],
              );
        return result.rows.map((row) => ({ ...row, id: Number(row.id) }));
      }),
    conversationId: (candidate, company, jobId) =>
      withClient(url, async (client) => {
        const result = await client.query<{ id: number }>(
          CONVERSATION_SQL((n) => `$${n}`),
          [candidate, company, jobId ?? 0],
        );
        const row = result.rows[0];
        if (!row) throw new Error(`no conversation ${candidate} × ${company} × ${jobId}`);
        return Number(row.id);
      }),
    renameUser: (email, name) =>
      withClient(url, async (client) => {
        await client.query('update users set name = $1 where email = $2', [name, email]);
      }),
    drop: () =>
      withClient(settings().postgresUrl, (admin) =>
        admin.query(`drop database if exists ${name} with (force)`),
      ).then(() => undefined),
  };
};

export const freshDatabase = (dialect: 'sqlite' | 'postgres'): Promise<FaultDatabase> =>
  dialect === 'sqlite' ? Promise.resolve(freshSqlite()) : freshPostgres();
