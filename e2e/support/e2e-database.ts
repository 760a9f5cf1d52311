import Database from 'better-sqlite3';
import { afterAll, beforeAll } from 'vitest';
import type { Suite } from './suite.js';

/**
 * Rows a browser test needs and the demo seed does not have (messages at chosen times, a job with
 * a long title), written straight into the running e2e server's SQLite file.
 */
export interface E2eDatabase {
  userId(email: string): number;
  /** A job of the company; returns its id. */
  addJob(job: { companyEmail: string; title: string; status: string; deadline: string }): number;
  /** A conversation between a candidate and a company (no job); returns its id. */
  addConversation(candidateEmail: string, companyEmail: string): number;
  /** The id of an existing conversation of the pair (any job). */
  conversationId(candidateEmail: string, companyEmail: string): number;
  /** A message at a chosen time; returns its id. */
  addMessage(message: {
    conversationId: number;
    fromEmail: string;
    text: string;
    createdAt: string;
  }): number;
  renameUser(email: string, name: string): void;
  close(): void;
}

export const openE2eDatabase = (file: string): E2eDatabase => {
  const db = new Database(file);
  db.pragma('busy_timeout = 10000');
  const userId = (email: string): number => {
    const row = db.prepare('select id from users where email = ?').get(email) as
      { id: number } | undefined;
    if (!row) throw new Error(`no user ${email}`);
    return row.id;
  };
  const now = () => new Date().toISOString();
  return {
    userId,
    addJob: ({ companyEmail, title, status, deadline }) =>
      Number(
        db
          .prepare(
            'insert into jobs (company_id, title, status, deadline, created_at) values (?, ?, ?, ?, ?)',
          )
          .run(userId(companyEmail), title, status, deadline, now()).lastInsertRowid,
      ),
    addConversation: (candidateEmail, companyEmail) => {
      const at = now();
      return Number(
        db
          .prepare(
            `insert into messenger_users (candidate_id, company_id, job_id, job_key, last_message,
               last_message_at, activity_at, created_at) values (?, ?, null, 0, null, null, ?, ?)`,
          )
          .run(userId(candidateEmail), userId(companyEmail), at, at).lastInsertRowid,
      );
    },
    conversationId: (candidateEmail, companyEmail) => {
      const row = db
        .prepare('select id from messenger_users where candidate_id = ? and company_id = ?')
        .get(userId(candidateEmail), userId(companyEmail)) as { id: number } | undefined;
      if (!row) throw new Error(`no conversation ${candidateEmail} / ${companyEmail}`);
      return row.id;
    },
    addMessage: ({ conversationId, fromEmail, text, createdAt }) => {
      const conversation = db
        .prepare('select candidate_id, company_id, job_id from messenger_users where id = ?')
        .get(conversationId) as { candidate_id: number; company_id: number; job_id: number | null };
      const sender = userId(fromEmail);
      const receiver =
        sender === conversation.candidate_id ? conversation.company_id : conversation.candidate_id;
      const id = Number(
        db
          .prepare(
            `insert into chats (messenger_user_id, sender_id, receiver_id, job_id, message, client_id,
               created_at, seen_at) values (?, ?, ?, ?, ?, null, ?, ?)`,
          )
          .run(conversationId, sender, receiver, conversation.job_id, text, createdAt, createdAt)
          .lastInsertRowid,
      );
      db.prepare(
        `update messenger_users set last_message = ?, last_message_at = ?, activity_at = ?
           where id = ? and (last_message_at is null or last_message_at <= ?)`,
      ).run(text, createdAt, createdAt, conversationId, createdAt);
      return id;
    },
    renameUser: (email, name) => {
      db.prepare('update users set name = ? where email = ?').run(name, email);
    },
    close: () => db.close(),
  };
};

/** The suite's database for this file's tests: opened before them, closed after them. */
export const useE2eDatabase = (suite: Suite): E2eDatabase => {
  let db: E2eDatabase | undefined;
  beforeAll(() => {
    db = openE2eDatabase(suite.server.databaseFile);
  });
  afterAll(() => db?.close());
  const opened = (): E2eDatabase => {
    if (!db) throw new Error('the e2e database is not open (beforeAll failed?)');
    return db;
  };
  return new Proxy({} as E2eDatabase, {
    get: (_target, key: keyof E2eDatabase) => opened()[key],
  });
};
