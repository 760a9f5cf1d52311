import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test-support/databases.js';
import { sleep, until, within } from '../../../test-support/wait.js';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { createOutbox, type Outbox, type OutboxTask } from './outbox.js';
import { backoffDelay, createOutboxWorker } from './outbox-worker.js';

const dialect = inject('database');

const MINUTE = 60_000;
let counter = 0;
/** A kind of its own per test: tests share the database, never each other's tasks. */
const freshKind = (label: string) => `${label}-${(counter += 1)}`;

describe(`the durable outbox (${dialect})`, () => {
  let database: TestDatabase;
  let current: Date;
  let outbox: Outbox;
  const later = (ms: number) => new Date(current.getTime() + ms);
  const advance = (ms: number) => {
    current = later(ms);
  };

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    current = new Date('2030-01-01T00:00:00.000Z');
    outbox = createOutbox({ db: database.db, now: () => current });
  });
  afterAll(async () => database.drop());

  const enqueue = (kind: string, key: string, payload: unknown = { key }, runAt = current) =>
    outbox.enqueue(database.db.kysely, {
      kind,
      dedupeKey: `${kind}:${key}`,
      payload,
      runAt: runAt.toISOString(),
    });

  it('enqueues a dedupe key once: the second enqueue is a no-op', async () => {
    const kind = freshKind('dedupe');
    expect(await enqueue(kind, 'a', { first: true })).toBe(true);
    expect(await enqueue(kind, 'a', { first: false })).toBe(false);
    const rows = await database.db.kysely
      .selectFrom('outbox')
      .selectAll()
      .where('kind', '=', kind)
      .execute();
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.payload)).toEqual({ first: true });
    expect(rows[0]).toMatchObject({ attempts: 0, done_at: null, locked_by: null });
  });

  it('re-arms a finished task when asked to, and leaves a waiting one as it is', async () => {
    const kind = freshKind('rearm');
    await enqueue(kind, 'moment');
    const [task] = await outbox.claim('w', [kind], 1, MINUTE);
    expect(await outbox.complete(task!.id, 'w')).toBe(true);
    const again = { kind, dedupeKey: `${kind}:moment`, payload: { again: true } };
    expect(
      await outbox.enqueue(database.db.kysely, { ...again, runAt: current.toISOString() }),
    ).toBe(false);
    expect((await outbox.find(task!.id))?.done_at).not.toBeNull();
    expect(
      await outbox.enqueue(
        database.db.kysely,
        { ...again, runAt: later(1000).toISOString() },
        { rearm: true },
      ),
    ).toBe(true);
    expect(await outbox.find(task!.id)).toMatchObject({
      done_at: null,
      attempts: 0,
      run_at: later(1000).toISOString(),
    });
    // Waiting already: a re-arm changes nothing.
    await outbox.enqueue(
      database.db.kysely,
      { ...again, runAt: later(5000).toISOString() },
      { rearm: true },
    );
    expect((await outbox.find(task!.id))?.run_at).toBe(later(1000).toISOString());
  });

  it('claims due tasks of the asked kinds only, oldest due first', async () => {
    const kind = freshKind('due');
    const other = freshKind('other');
    await enqueue(kind, 'future', {}, later(MINUTE));
    await enqueue(kind, 'due-2', {}, later(-1000));
    await enqueue(kind, 'due-1', {}, later(-2000));
    await enqueue(other, 'due', {}, later(-3000));

    const claimed = await outbox.claim('w1', [kind], 10, MINUTE);
    expect(claimed.map((task) => task.dedupe_key)).toEqual([`${kind}:due-1`, `${kind}:due-2`]);
    expect(claimed.every((task) => task.locked_by === 'w1')).toBe(true);
    expect(claimed[0]!.locked_until).toBe(later(MINUTE).toISOString());
    expect(await outbox.claim('w2', [kind], 10, MINUTE)).toEqual([]);

    advance(MINUTE + 1);
    // the lease of the first two ran out too: all three are due now
    expect((await outbox.claim('w2', [kind], 10, MINUTE)).map((task) => task.dedupe_key)).toEqual([
      `${kind}:due-1`,
      `${kind}:due-2`,
      `${kind}:future`,
    ]);
    expect(await outbox.claim('w2', [], 10, MINUTE)).toEqual([]);
    expect((await outbox.claim('w2', [other], 10, MINUTE)).length).toBe(1);
  });

  it('claims and looks ahead over lists of kinds of any length (one prepared query per length)', async () => {
    const [a, b, c] = [freshKind('list-a'), freshKind('list-b'), freshKind('list-c')];
    await enqueue(a, 'due', {}, later(-3000));
    await enqueue(b, 'due', {}, later(-2000));
    await enqueue(c, 'due', {}, later(-1000));
    await enqueue(c, 'future', {}, later(MINUTE));
    expect((await outbox.nextRunAt([b]))?.toISOString()).toBe(later(-2000).toISOString());
    expect((await outbox.nextRunAt([c, b, a]))?.toISOString()).toBe(later(-3000).toISOString());

    const claimed = await outbox.claim('w', [c, a], 10, MINUTE);
    expect(claimed.map((task) => task.dedupe_key)).toEqual([`${a}:due`, `${c}:due`]);
    expect((await outbox.claim('w', [a, b, c], 10, MINUTE)).map((task) => task.dedupe_key)).toEqual(
      [`${b}:due`],
    );
    expect((await outbox.nextRunAt([a, b, c]))?.toISOString()).toBe(later(MINUTE).toISOString());
    expect(await outbox.nextRunAt([a, b])).toBeUndefined();
  });

  it('never hands the same task to two workers claiming at once', async () => {
    const kind = freshKind('race');
    for (let index = 0; index < 60; index += 1) await enqueue(kind, `t${index}`);
    const workers = Array.from({ length: 30 }, (_, index) => `racer-${index}`);
    const batches = await Promise.all(
      workers.map((worker) => outbox.claim(worker, [kind], 3, MINUTE)),
    );
    const ids = batches.flat().map((task) => task.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.length).toBeLessThanOrEqual(60);
    const owners = await database.db.kysely
      .selectFrom('outbox')
      .select(['id', 'locked_by'])
      .where('kind', '=', kind)
      .where('locked_by', 'is not', null)
      .execute();
    expect(owners).toHaveLength(ids.length);
    batches.forEach((batch, index) => {
      for (const task of batch)
        expect(owners.find((row) => row.id === task.id)?.locked_by).toBe(workers[index]);
    });
  });

  it('gives a task whose lease ran out to another worker; the first one can no longer finish it', async () => {
    const kind = freshKind('lease');
    await enqueue(kind, 'a');
    const [task] = await outbox.claim('crashed', [kind], 1, MINUTE);
    expect(task).toBeDefined();
    expect(await outbox.claim('rescuer', [kind], 1, MINUTE)).toEqual([]);

    advance(MINUTE + 1);
    const [again] = await outbox.claim('rescuer', [kind], 1, MINUTE);
    expect(again?.id).toBe(task!.id);
    expect(again?.locked_by).toBe('rescuer');

    expect(await outbox.complete(task!.id, 'crashed')).toBe(false);
    expect(await outbox.fail(task!.id, 'crashed', 'late', later(MINUTE))).toBe(false);
    expect((await outbox.find(task!.id))?.done_at).toBeNull();
    expect(await outbox.complete(task!.id, 'rescuer')).toBe(true);
    expect(await outbox.find(task!.id)).toMatchObject({
      done_at: current.toISOString(),
      locked_by: null,
      locked_until: null,
      attempts: 0,
    });
    expect(await outbox.complete(task!.id, 'rescuer')).toBe(false);
    advance(10 * MINUTE);
    expect(await outbox.claim('rescuer', [kind], 1, MINUTE)).toEqual([]);
  });

  it('schedules a failed task for its retry moment and counts the attempt', async () => {
    const kind = freshKind('fail');
    await enqueue(kind, 'a');
    const [task] = await outbox.claim('w', [kind], 1, MINUTE);
    expect(await outbox.fail(task!.id, 'w', 'smtp: 421 try later', later(30_000))).toBe(true);
    expect(await outbox.find(task!.id)).toMatchObject({
      attempts: 1,
      locked_by: null,
      locked_until: null,
      run_at: later(30_000).toISOString(),
      last_error: 'smtp: 421 try later',
      done_at: null,
    });
    expect(await outbox.claim('w', [kind], 1, MINUTE)).toEqual([]);
    advance(30_000);
    const [retry] = await outbox.claim('w', [kind], 1, MINUTE);
    expect(retry).toMatchObject({ id: task!.id, attempts: 1 });

    expect(await outbox.giveUp(task!.id, 'w', 'smtp: 550 no such user')).toBe(true);
    expect(await outbox.find(task!.id)).toMatchObject({
      attempts: 2,
      done_at: current.toISOString(),
      last_error: 'smtp: 550 no such user',
    });
    advance(MINUTE);
    expect(await outbox.claim('w', [kind], 1, MINUTE)).toEqual([]);
  });

  it('deletes finished tasks once they are older than the retention, and nothing else', async () => {
    const kind = freshKind('purge');
    for (const key of ['done', 'given-up', 'recent', 'waiting']) await enqueue(kind, key);
    const tasks = await outbox.claim('w', [kind], 3, MINUTE);
    const [done, givenUp, recent] = tasks as [OutboxTask, OutboxTask, OutboxTask];
    expect(await outbox.complete(done.id, 'w')).toBe(true);
    expect(await outbox.giveUp(givenUp.id, 'w', 'no')).toBe(true);
    advance(10 * MINUTE);
    expect(await outbox.complete(recent.id, 'w')).toBe(true);
    advance(5 * MINUTE);
    expect(await outbox.purgeDone(12 * MINUTE, 1)).toBeGreaterThanOrEqual(2);
    const left = await database.db.kysely
      .selectFrom('outbox')
      .select('dedupe_key')
      .where('kind', '=', kind)
      .orderBy('id')
      .execute();
    expect(left.map((row) => row.dedupe_key)).toEqual([`${kind}:recent`, `${kind}:waiting`]);
  });

  it('keeps nothing of a task enqueued in a transaction that rolled back', async () => {
    const kind = freshKind('rollback');
    await expect(
      database.db.kysely.transaction().execute(async (trx) => {
        expect(
          await outbox.enqueue(trx, {
            kind,
            dedupeKey: `${kind}:a`,
            payload: {},
            runAt: current.toISOString(),
          }),
        ).toBe(true);
        throw new Error('the send failed');
      }),
    ).rejects.toThrow('the send failed');
    expect(await outbox.findByDedupeKey(`${kind}:a`)).toBeUndefined();

    await database.db.kysely.transaction().execute(async (trx) => {
      await outbox.enqueue(trx, {
        kind,
        dedupeKey: `${kind}:b`,
        payload: {},
        runAt: current.toISOString(),
      });
    });
    expect(await outbox.findByDedupeKey(`${kind}:b`)).toBeDefined();
  });

  describe('the worker', () => {
    const newWorker = () =>
      createOutboxWorker({ outbox, pollMs: 1000, leaseMs: MINUTE, random: () => 1 });

    it('runs a registered handler once with the parsed payload and marks the task done', async () => {
      const kind = freshKind('work');
      const worker = newWorker();
      const seen: unknown[] = [];
      worker.register<{ to: string }>(
        kind,
        async (payload) => {
          seen.push(payload);
        },
        {
          timeoutMs: 1000,
          parse: (payload) => {
            const value = payload as { to?: unknown };
            if (typeof value.to !== 'string') throw new Error('bad payload');
            return { to: value.to };
          },
        },
      );
      await enqueue(kind, 'a', { to: 'sara@example.com' });
      expect(await worker.runOnce()).toBe(1);
      expect(seen).toEqual([{ to: 'sara@example.com' }]);
      const task = await outbox.findByDedupeKey(`${kind}:a`);
      expect(task).toMatchObject({ done_at: current.toISOString(), last_error: null });
      advance(2 * MINUTE);
      expect(await worker.runOnce()).toBe(0);
      expect(seen).toHaveLength(1);
    });

    it('runs no more of a kind at once than its own concurrency: the other kinds keep their slots', async () => {
      const slow = freshKind('slow');
      const quick = freshKind('quick');
      const worker = newWorker();
      const release: (() => void)[] = [];
      const started: string[] = [];
      worker.register(
        slow,
        () =>
          new Promise<void>((resolve) => {
            started.push(slow);
            release.push(resolve);
          }),
        { timeoutMs: 1000, concurrency: 2 },
      );
      worker.register(quick, async () => void started.push(quick), { timeoutMs: 1000 });
      for (const key of ['1', '2', '3', '4', '5']) await enqueue(slow, key);
      for (const key of ['1', '2', '3']) await enqueue(quick, key);
      const run = worker.runOnce();
      await until(() => started.length === 5, 'five handlers started');
      expect(started.filter((kind) => kind === slow)).toHaveLength(2);
      expect(started.filter((kind) => kind === quick)).toHaveLength(3);
      for (const resolve of release) resolve();
      expect(await run).toBe(5);
      // The rest of the slow kind, two at a time.
      const next = worker.runOnce();
      await until(() => release.length === 4, 'two more of the slow kind started');
      for (const resolve of release.slice(2)) resolve();
      expect(await next).toBe(2);
    });

    it('retries a throwing handler after its backoff, then gives up after the last attempt', async () => {
      const kind = freshKind('flaky');
      const worker = newWorker();
      let calls = 0;
      worker.register(
        kind,
        async () => {
          calls += 1;
          if (calls !== 2) throw new Error(`failure ${calls}`);
        },
        { timeoutMs: 1000, backoff: { baseMs: 30_000, capMs: 3_600_000 }, maxAttempts: 2 },
      );
      await enqueue(kind, 'a');
      expect(await worker.runOnce()).toBe(1);
      const failed = await outbox.findByDedupeKey(`${kind}:a`);
      expect(failed).toMatchObject({
        attempts: 1,
        done_at: null,
        locked_by: null,
        run_at: later(30_000).toISOString(),
      });
      expect(failed?.last_error).toContain('failure 1');
      expect(await worker.runOnce()).toBe(0);
      advance(30_000);
      expect(await worker.runOnce()).toBe(1);
      expect(calls).toBe(2);
      expect(await outbox.findByDedupeKey(`${kind}:a`)).toMatchObject({
        attempts: 1,
        done_at: current.toISOString(),
        last_error: null,
      });

      // always failing: the second failure is the last attempt
      const hopeless = freshKind('hopeless');
      worker.register(
        hopeless,
        async () => {
          throw new Error('mailbox unavailable');
        },
        { timeoutMs: 1000, maxAttempts: 2 },
      );
      await enqueue(hopeless, 'a');
      await worker.runOnce();
      advance(3_600_000);
      await worker.runOnce();
      const given = await outbox.findByDedupeKey(`${hopeless}:a`);
      expect(given).toMatchObject({ attempts: 2, done_at: current.toISOString() });
      expect(given?.last_error).toContain('mailbox unavailable');
      advance(3_600_000);
      expect(await worker.runOnce()).toBe(0);
    });

    it('counts a handler that outlives its timeout as failed and aborts its signal', async () => {
      const kind = freshKind('slow');
      const worker = newWorker();
      let aborted = false;
      worker.register(
        kind,
        (_payload, { signal }) =>
          new Promise<void>(() => {
            signal.addEventListener('abort', () => (aborted = true));
          }),
        { timeoutMs: 20 },
      );
      await enqueue(kind, 'a');
      expect(await within(worker.runOnce(), 'the timed-out handler')).toBe(1);
      expect(aborted).toBe(true);
      const task = await outbox.findByDedupeKey(`${kind}:a`);
      expect(task).toMatchObject({ attempts: 1, done_at: null, locked_by: null });
      expect(task?.last_error).toContain('timed out');
    });

    it('hands back a task cut short by a stop: not a failed attempt, free to claim at once', async () => {
      const kind = freshKind('stopped');
      const worker = createOutboxWorker({
        outbox,
        pollMs: 1000,
        leaseMs: MINUTE,
        stopTimeoutMs: 50,
      });
      let started!: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      worker.register(
        kind,
        () => {
          started();
          return new Promise<void>(() => undefined); // never ends on its own
        },
        { timeoutMs: 20_000 },
      );
      await enqueue(kind, 'a');
      void worker.runOnce();
      await within(running, 'the handler to start');
      await within(worker.close(), 'the stop');
      const task = await outbox.findByDedupeKey(`${kind}:a`);
      expect(task).toMatchObject({
        attempts: 0,
        done_at: null,
        locked_by: null,
        locked_until: null,
      });

      // another worker takes it at once, without waiting for the lease to run out
      const next = newWorker();
      next.register(kind, async () => undefined, { timeoutMs: 1000 });
      expect(await next.runOnce()).toBe(1);
      expect(await outbox.findByDedupeKey(`${kind}:a`)).toMatchObject({ attempts: 0 });
    });

    it('refuses a handler timeout that does not fit well inside the lease', () => {
      expect(() =>
        newWorker().register('any', async () => undefined, { timeoutMs: MINUTE }),
      ).toThrow(/half the lease/);
    });

    it('is started by the app, and stops polling on close after its running handler finished', async () => {
      const config = loadConfig({ LOG_LEVEL: 'silent', REDIS_URL: '', OUTBOX_POLL_MS: '5' });
      const built = await buildApp({ config, db: database.db });
      const { worker, outbox: appOutbox } = built.outbox;
      // (inline background work, the default: the worker is this thread's)
      if (!worker) throw new Error('no outbox worker in this thread');
      const kind = freshKind('app');
      const started: string[] = [];
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      worker.register<{ key: string }>(
        kind,
        async ({ key }) => {
          started.push(key);
          if (key === 'slow') await gate;
        },
        { timeoutMs: 30_000 },
      );
      const enqueueNow = (key: string) =>
        appOutbox.enqueue(database.db.kysely, {
          kind,
          dedupeKey: `${kind}:${key}`,
          payload: { key },
          runAt: new Date().toISOString(),
        });
      await built.app.ready();
      await enqueueNow('fast');
      await until(
        async () => (await appOutbox.findByDedupeKey(`${kind}:fast`))?.done_at != null,
        'the poller ran the first task',
      );

      await enqueueNow('slow');
      await until(() => started.includes('slow'), 'the slow handler started');
      const closing = built.app.close();
      release();
      await within(closing, 'app.close');
      expect((await appOutbox.findByDedupeKey(`${kind}:slow`))?.done_at).not.toBeNull();
      expect(worker.inFlight).toBe(0);

      const claim = vi.spyOn(appOutbox, 'claim');
      await enqueueNow('after-close');
      await sleep(50);
      expect(claim).not.toHaveBeenCalled();
      expect((await appOutbox.findByDedupeKey(`${kind}:after-close`))?.done_at).toBeNull();
    });
  });

  it('backs off exponentially with jitter, up to the cap', () => {
    const backoff = { baseMs: 30_000, capMs: 3_600_000 };
    expect(backoffDelay(1, backoff, () => 1)).toBe(30_000);
    expect(backoffDelay(1, backoff, () => 0)).toBe(15_000);
    expect(backoffDelay(2, backoff, () => 1)).toBe(60_000);
    expect(backoffDelay(3, backoff, () => 0.5)).toBe(90_000);
    expect(backoffDelay(50, backoff, () => 1)).toBe(3_600_000);
  });
});
