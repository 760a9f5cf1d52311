import SqliteDatabase from 'better-sqlite3';
import type pg from 'pg';
import {
  freshPostgresDatabase,
  freshSqliteFile,
  withPostgres,
  type ServerDatabase,
} from '../../test-support/databases.js';

/** A stored chat as the tests compare it. */
export interface StoredChat {
  id: number;
  messenger_user_id: number;
  sender_id: number;
  receiver_id: number;
  message: string;
  client_id: string | null;
}

/** An outbox task as the tests look at it (ADR 013). */
export interface StoredOutboxTask {
  id: number;
  kind: string;
  dedupe_key: string;
  payload: string;
  run_at: string;
  attempts: number;
  locked_until: string | null;
  locked_by: string | null;
  last_error: string | null;
  done_at: string | null;
}

/**
 * A fresh database for the server processes of one test file (they migrate it), with direct reads
 * and writes for the test.
 */
export interface StoredAttachment {
  id: number;
  chat_id: number | null;
  uploader_id: number;
  storage_key: string;
}

const ATTACHMENT_SQL = 'select id, chat_id, uploader_id, storage_key from attachments order by id';

export interface FaultDatabase {
  dialect: 'sqlite' | 'postgres';
  url: string;
  /** PostgreSQL only: the database name (to build a URL through a proxy). */
  name?: string;
  /** Every chat of a conversation (or all), by id. */
  chats(conversationId?: number): Promise<StoredChat[]>;
  /** Every upload row (attached to a message or not), by id. */
  attachments(): Promise<StoredAttachment[]>;
  /** The outbox's tasks of one kind (or all), by id. */
  outbox(kind?: string): Promise<StoredOutboxTask[]>;
  /** Renames a user directly in the database (names are not editable through the product). */
  renameUser(email: string, name: string): Promise<void>;
  /** Gives a demo user the host's id, as if the host had brought them in (the integration API then finds them). */
  setExternalId(email: string, externalId: string): Promise<void>;
  /** The conversation id of a candidate × company × job (null = no job). */
  conversationId(
    candidateEmail: string,
    companyEmail: string,
    jobId: number | null,
  ): Promise<number>;
  drop(): Promise<void>;
}

const CHAT_COLUMNS = 'id, messenger_user_id, sender_id, receiver_id, message, client_id';
const OUTBOX_COLUMNS =
  'id, kind, dedupe_key, payload, run_at, attempts, locked_until, locked_by, last_error, done_at';
const CONVERSATION_SQL = (placeholder: (n: number) => string) =>
  `select mu.id from messenger_users mu
     join users c on c.id = mu.candidate_id
     join users o on o.id = mu.company_id
    where c.email = ${placeholder(1)} and o.email = ${placeholder(2)} and mu.job_key = ${placeholder(3)}`;

/** A temporary SQLite file; the server process owns writing, the test mostly reads. */
export const freshSqlite = (): FaultDatabase => {
  const database: ServerDatabase = freshSqliteFile('faults');
  const file = database.location;
  const read = <T>(work: (db: SqliteDatabase.Database) => T): T => {
    const db = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
    try {
      return work(db);
    } finally {
      db.close();
    }
  };
  const write = (column: 'name' | 'external_id', email: string, value: string) => {
    const db = new SqliteDatabase(file, { fileMustExist: true });
    try {
      db.pragma('busy_timeout = 5000');
      db.prepare(`update users set ${column} = ? where email = ?`).run(value, email);
    } finally {
      db.close();
    }
  };
  return {
    dialect: 'sqlite',
    url: database.url,
    chats: async (conversationId) =>
      read((db) =>
        conversationId === undefined
          ? (db.prepare(`select ${CHAT_COLUMNS} from chats order by id`).all() as StoredChat[])
          : (db
              .prepare(`select ${CHAT_COLUMNS} from chats where messenger_user_id = ? order by id`)
              .all(conversationId) as StoredChat[]),
      ),
    attachments: async () => read((db) => db.prepare(ATTACHMENT_SQL).all() as StoredAttachment[]),
    outbox: async (kind) =>
      read((db) =>
        kind === undefined
          ? (db
              .prepare(`select ${OUTBOX_COLUMNS} from outbox order by id`)
              .all() as StoredOutboxTask[])
          : (db
              .prepare(`select ${OUTBOX_COLUMNS} from outbox where kind = ? order by id`)
              .all(kind) as StoredOutboxTask[]),
      ),
    conversationId: async (candidate, company, jobId) =>
      read((db) => {
        const row = db.prepare(CONVERSATION_SQL(() => '?')).get(candidate, company, jobId ?? 0) as
          { id: number } | undefined;
        if (!row) throw new Error(`no conversation ${candidate} × ${company} × ${jobId}`);
        return row.id;
      }),
    renameUser: async (email, name) => write('name', email, name),
    setExternalId: async (email, externalId) => write('external_id', email, externalId),
    drop: database.drop,
  };
};

/** A new PostgreSQL database (dropped WITH (FORCE) by `drop()`). */
export const freshPostgres = async (): Promise<FaultDatabase> => {
  const database = await freshPostgresDatabase('faults');
  const on = <T>(work: (client: pg.Client) => Promise<T>) => withPostgres(work, database.url);
  const write = (column: 'name' | 'external_id', email: string, value: string) =>
    on(async (client) => {
      await client.query(`update users set ${column} = $1 where email = $2`, [value, email]);
    });
  return {
    dialect: 'postgres',
    url: database.url,
    name: database.location,
    chats: (conversationId) =>
      on(async (client) => {
        const result =
          conversationId === undefined
            ? await client.query<StoredChat>(`select ${CHAT_COLUMNS} from chats order by id`)
            : await client.query<StoredChat>(
                `select ${CHAT_COLUMNS} from chats where messenger_user_id = $1 order by id`,
                [conversationId],
              );
        return result.rows.map((row) => ({ ...row, id: Number(row.id) }));
      }),
    attachments: () =>
      on(async (client) => {
        const result = await client.query<StoredAttachment>(ATTACHMENT_SQL);
        return result.rows.map((row) => ({
          ...row,
          id: Number(row.id),
          chat_id: row.chat_id === null ? null : Number(row.chat_id),
          uploader_id: Number(row.uploader_id),
        }));
      }),
    outbox: (kind) =>
      on(async (client) => {
        const result =
          kind === undefined
            ? await client.query<StoredOutboxTask>(
                `select ${OUTBOX_COLUMNS} from outbox order by id`,
              )
            : await client.query<StoredOutboxTask>(
                `select ${OUTBOX_COLUMNS} from outbox where kind = $1 order by id`,
                [kind],
              );
        return result.rows.map((row) => ({
          ...row,
          id: Number(row.id),
          attempts: Number(row.attempts),
        }));
      }),
    conversationId: (candidate, company, jobId) =>
      on(async (client) => {
        const result = await client.query<{ id: number }>(
          CONVERSATION_SQL((n) => `$${n}`),
          [candidate, company, jobId ?? 0],
        );
        const row = result.rows[0];
        if (!row) throw new Error(`no conversation ${candidate} × ${company} × ${jobId}`);
        return Number(row.id);
      }),
    renameUser: (email, name) => write('name', email, name),
    setExternalId: (email, externalId) => write('external_id', email, externalId),
    drop: database.drop,
  };
};

export const freshDatabase = (dialect: 'sqlite' | 'postgres'): Promise<FaultDatabase> =>
  dialect === 'sqlite' ? Promise.resolve(freshSqlite()) : freshPostgres();
