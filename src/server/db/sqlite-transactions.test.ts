import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase, type Db } from './database.js';

/** A transaction of `db` that has written and keeps the write lock until `release()`. */
const holdWriteLock = async (db: Db) => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const holder = db.kysely.transaction().execute(async (trx) => {
    await sql`update counters set value = value + 1 where id = 1`.execute(trx);
    await released;
  });
  await new Promise((resolve) => setImmediate(resolve));
  return { holder, release };
};

/**
 * Two connections to one SQLite file (the request thread and the background thread, or two
 * workers): a transaction that reads, then writes after the other connection committed, still
 * commits: it took the write lock when it began.
 */
describe('SQLite transactions with a second connection', () => {
  let dir: string;
  let first: Db;
  let second: Db;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sqlite-transactions-'));
    const url = `sqlite:${join(dir, 'shared.db')}`;
    first = openDatabase(url);
    second = openDatabase(url);
    await sql`create table counters (id integer primary key, value integer not null)`.execute(
      first.kysely,
    );
    await sql`insert into counters (id, value) values (1, 0)`.execute(first.kysely);
  });
  afterEach(async () => {
    await first.destroy();
    await second.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('commits a read-then-write transaction when the other connection tries to write in between', async () => {
    const read = (db: Db['kysely']) =>
      sql<{ value: number }>`select value from counters where id = 1`
        .execute(db)
        .then((result) => result.rows[0]?.value);
    let otherCommitted = false;
    await first.kysely.transaction().execute(async (trx) => {
      const before = (await read(trx)) ?? 0;
      // This transaction holds the write lock since it began: the other connection waits for it
      // (SQLITE_LOCK_WAIT_MS) and gives up; it never commits between this read and this write.
      await sql`update counters set value = value + 10 where id = 1`.execute(second.kysely).then(
        () => (otherCommitted = true),
        () => undefined,
      );
      await sql`update counters set value = ${before + 1} where id = 1`.execute(trx);
    });
    expect(otherCommitted).toBe(false);
    expect(await read(second.kysely)).toBe(1);
  });

  it('waits for the lock without stopping the process: the other write commits once the holder is done', async () => {
    let ticks = 0;
    const ticker = setInterval(() => (ticks += 1), 5);
    try {
      const { holder, release } = await holdWriteLock(first);
      const waiter = sql`update counters set value = value + 10 where id = 1`.execute(
        second.kysely,
      );
      // The holder keeps the lock for 100 ms of timers; a wait inside SQLite would stop them all.
      const ticksBefore = ticks;
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(ticks).toBeGreaterThan(ticksBefore);
      release();
      await holder;
      await waiter;
    } finally {
      clearInterval(ticker);
    }
    const { rows } = await sql<{ value: number }>`select value from counters where id = 1`.execute(
      second.kysely,
    );
    expect(rows[0]?.value).toBe(11);
  });

  it('gives up with SQLITE_BUSY when the lock stays taken longer than the wait (one second)', async () => {
    const { holder, release } = await holdWriteLock(first);
    const failure = await second.kysely
      .transaction()
      .execute((trx) => sql`update counters set value = value + 10 where id = 1`.execute(trx))
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    release();
    await holder;
    expect(failure).toMatchObject({ code: 'SQLITE_BUSY' });
  });
});
