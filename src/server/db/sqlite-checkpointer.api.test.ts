/**
 * The server's SQLite log is checkpointed by a worker thread, not inside its commits:
 * the log still gets copied into the database file, nothing written is lost, and without the worker
 * the connection checkpoints by itself again.
 */
import { existsSync, statSync } from 'node:fs';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { freshSqliteFile, type ServerDatabase } from '../../../test-support/databases.js';
import { migrateToLatest, openDatabase, type Db } from './database.js';
import { startSqliteCheckpointer } from './sqlite-checkpointer.js';

const dialect = inject('database');

describe.runIf(dialect === 'sqlite')('SQLite checkpoints in a worker thread', () => {
  let file: ServerDatabase;
  let db: Db | undefined;

  afterEach(async () => {
    await db?.destroy();
    db = undefined;
    await file.drop();
  });

  const open = async () => {
    file = freshSqliteFile('checkpointer');
    db = openDatabase(file.url, { checkpointInBackground: true });
    await migrateToLatest(db);
    return db;
  };

  const writeTasks = async (target: Db, count: number, prefix: string) => {
    const now = new Date().toISOString();
    for (let index = 0; index < count; index += 1) {
      await target.kysely
        .insertInto('outbox')
        .values({
          kind: 'test',
          dedupe_key: `${prefix}:${index}`,
          payload: JSON.stringify({ filler: 'x'.repeat(500) }),
          run_at: now,
          created_at: now,
        })
        .execute();
    }
  };

  const autocheckpoint = async (target: Db) =>
    (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(target.kysely))
      .rows[0]?.wal_autocheckpoint;

  it('copies the log into the database file from the worker; the server connection only past a limit', async () => {
    const target = await open();
    expect(await autocheckpoint(target)).toBe(10_000);
    await writeTasks(target, 3000, 'many');
    const before = statSync(`${file.location}`).size;
    const result = await target.checkpointer!.checkpointNow();
    expect(result.log).toBeGreaterThan(0);
    expect(result.checkpointed).toBe(result.log);
    expect(statSync(`${file.location}`).size).toBeGreaterThan(before);
  });

  it('keeps every write across a close and a reopen, and leaves no log behind', async () => {
    const target = await open();
    await writeTasks(target, 500, 'kept');
    await target.destroy();
    db = undefined;
    expect(existsSync(`${file.location}-wal`)).toBe(false);

    db = openDatabase(file.url);
    const count = await db.kysely
      .selectFrom('outbox')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('dedupe_key', 'like', 'kept:%')
      .executeTakeFirstOrThrow();
    expect(Number(count.count)).toBe(500);
  });

  it('goes back to automatic checkpoints when the worker is gone', async () => {
    const target = await open();
    await target.checkpointer!.stop();
    expect(await autocheckpoint(target)).toBe(1000);
    await expect(target.checkpointer!.checkpointNow()).rejects.toThrow(/stopped/);
    await writeTasks(target, 10, 'after');
  });

  it('says so when the worker stops unasked, and the connection checkpoints by itself again', async () => {
    file = freshSqliteFile('checkpointer');
    const connection = new SqliteDatabase(file.location);
    connection.pragma('journal_mode = WAL');
    const problems: string[] = [];
    // a worker that cannot open its database ends at once
    const checkpointer = startSqliteCheckpointer(connection, `${file.location}.missing`, {
      onProblem: (message) => problems.push(message),
    });
    try {
      await expect(checkpointer.checkpointNow()).rejects.toThrow(/stopped/);
      await vi.waitFor(() => expect(problems.join('\n')).toMatch(/worker stopped/));
      expect(connection.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    } finally {
      await checkpointer.stop();
      connection.close();
    }
  });

  it('keeps the log bounded under writes without a pause', async () => {
    // The same commits, one after another without ever yielding, twice: once with the bound, once
    // with the server connection never checkpointing by itself (the worker alone). Passive
    // checkpoints alone never catch up with such a writer, so without the bound the log holds about
    // everything written; with it the log starts over again and again. Counted in commits, not
    // seconds, so a slow or busy machine writes the same amount.
    const largestLog = async (maxLogFrames: number, autocheckpoint: boolean) => {
      file = freshSqliteFile('checkpointer');
      const connection = new SqliteDatabase(file.location);
      connection.pragma('journal_mode = WAL');
      connection.pragma('synchronous = NORMAL');
      connection.pragma('busy_timeout = 1000');
      connection.exec('create table t (id integer primary key, a text, b text)');
      connection.exec('create index t_a on t (a); create index t_b on t (b)');
      const checkpointer = startSqliteCheckpointer(connection, file.location, {
        // unbounded: the worker alone, often; bounded: a worker that seldom gets to run (a busy
        // machine), so the bound alone must keep the log down. (A worker descheduled in the middle
        // of its checkpoint holds the checkpoint lock and the log cannot start over meanwhile.)
        intervalMs: autocheckpoint ? 1000 : 20,
        maxLogFrames,
      });
      if (!autocheckpoint) connection.pragma('wal_autocheckpoint = 0');
      try {
        const insert = connection.prepare('insert into t (a, b) values (?, ?)');
        const many = connection.transaction((count: number) => {
          for (let index = 0; index < count; index += 1)
            insert.run(`a${Math.random()}`, `b${Math.random()}`);
        });
        let largest = 0;
        for (let commit = 0; commit < 2000; commit += 1) {
          many(20);
          largest = Math.max(largest, statSync(`${file.location}-wal`).size);
        }
        return largest;
      } finally {
        await checkpointer.stop();
        connection.close();
      }
    };
    const unbounded = await largestLog(2000, false);
    const bounded = await largestLog(2000, true);
    expect(bounded).toBeLessThan(unbounded / 4);
  }, 60_000);
});
