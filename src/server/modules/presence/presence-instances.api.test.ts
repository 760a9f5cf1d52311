/**
 * Presence over several instances sharing Redis, with the real database and real Redis: a hosted Pusher's webhooks may land on any instance, an instance that stops must not
 * let the hosted service's users go, and a crashed instance's holds are taken by one sweeper only,
 * never from an instance that is back.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { Redis } from 'ioredis';
import { ACME, OMAR, SARA } from '../../../../test-support/accounts.js';
import { settings } from '../../../../test-support/settings.js';
import { createTestApp, type TestContext } from '../../../../test-support/test-app.js';
import { until } from '../../../../test-support/wait.js';
import { PRESENCE_CHANGED_EVENT, userChannelName } from '../../../shared/events.js';
import { createPresenceAnnouncements } from './presence-announcements.js';
import { createPresenceRepository } from './presence.repository.js';
import { createPresenceService, type PresenceService } from './presence.service.js';
import { RedisPresenceStore } from './redis-presence-store.js';

const dialect = inject('database');
const GRACE_MS = 300;

interface Told {
  channels: string[];
  data: unknown;
}

describe(`presence over several instances (${dialect})`, () => {
  let ctx: TestContext;
  let saraId: number;
  let acmeId: number;
  let omarId: number;
  const told: Told[] = [];
  const services: PresenceService[] = [];
  let prefix: string;
  let redis: Redis;

  /** One instance's presence: its own store connection, all on the same Redis keys. */
  const instance = async (sweepIntervalMs = 60_000) => {
    const store = new RedisPresenceStore(settings.redisUrl, prefix);
    await store.ready();
    const service = createPresenceService({
      store,
      announcements: createPresenceAnnouncements({
        db: ctx.database.db.kysely,
        repository: createPresenceRepository(ctx.database.db),
        onlineAmong: (ids) => store.onlineAmong(ids),
        publisher: {
          publish: async (channels, event, data) => {
            if (event === PRESENCE_CHANGED_EVENT) told.push({ channels, data });
          },
        },
      }),
      graceMs: GRACE_MS,
      sweepIntervalMs,
    });
    services.push(service);
    return service;
  };

  /** What Acme (online) was told about Sara. */
  const toldAcme = () =>
    told
      .filter((entry) => entry.channels.includes(userChannelName(acmeId)))
      .map((entry) => entry.data as { user_id: number; online: boolean })
      .filter((event) => event.user_id === saraId)
      .map((event) => event.online);

  beforeAll(async () => {
    ctx = await createTestApp(dialect);
    const users = await ctx.database.db.kysely
      .selectFrom('users')
      .select(['id', 'email'])
      .where('email', 'in', [SARA.email, ACME.email, OMAR.email])
      .execute();
    saraId = users.find((user) => user.email === SARA.email)!.id;
    acmeId = users.find((user) => user.email === ACME.email)!.id;
    omarId = users.find((user) => user.email === OMAR.email)!.id;
    redis = new Redis(settings.redisUrl);
  });
  afterEach(async () => {
    await Promise.all(services.splice(0).map((service) => service.close()));
    told.length = 0;
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
  });
  afterAll(async () => {
    redis.disconnect();
    await ctx.close();
  });

  /** The instance holding the user crashes: no clean stop, its heartbeat key expires (here, at once). */
  const crashHolderOf = async (userId: number) => {
    for (const key of await redis.keys(`${prefix}:presence:alive:*`)) {
      const id = key.split(':').at(-1)!;
      const holds = await redis.smembers(`${prefix}:presence:holds:${id}`);
      if (holds.includes(String(userId))) await redis.del(key);
    }
  };

  const fresh = async () => {
    prefix = `presence-test-${randomUUID()}`;
    const a = await instance();
    const b = await instance();
    // Acme is on the page through instance A: it is told about Sara.
    a.channelOccupancy(userChannelName(acmeId), true);
    await a.settled(acmeId);
    return { a, b };
  };

  it('hosted: occupied on one instance, vacated on another, the user goes offline after the grace', async () => {
    const { a, b } = await fresh();
    await a.hostedOccupancy(userChannelName(saraId), true, Date.now());
    expect((await b.onlineAmong([saraId])).has(saraId)).toBe(true);
    await a.settled(saraId);
    expect(toldAcme()).toEqual([true]);
    await b.hostedOccupancy(userChannelName(saraId), false, Date.now());
    await until(async () => !(await a.onlineAmong([saraId])).has(saraId), 'Sara offline');
    await until(() => toldAcme().length === 2, 'Acme told she left');
    expect(toldAcme()).toEqual([true, false]);
    const { last_seen_at } = await ctx.database.db.kysely
      .selectFrom('users')
      .select('last_seen_at')
      .where('id', '=', saraId)
      .executeTakeFirstOrThrow();
    expect(last_seen_at).not.toBeNull();
  });

  it('hosted: back within the grace through another instance, nobody is told anything', async () => {
    const { a, b } = await fresh();
    await a.hostedOccupancy(userChannelName(saraId), true, Date.now());
    await a.hostedOccupancy(userChannelName(saraId), false, Date.now());
    await b.hostedOccupancy(userChannelName(saraId), true, Date.now());
    await Promise.all([a.settled(saraId), b.settled(saraId)]);
    await new Promise((resolve) => setTimeout(resolve, GRACE_MS * 2));
    expect((await a.onlineAmong([saraId])).has(saraId)).toBe(true);
    expect(toldAcme()).toEqual([true]);
  });

  it('hosted: a webhook retried or delivered late never undoes a newer one', async () => {
    const { a, b } = await fresh();
    const channel = userChannelName(saraId);
    const t0 = Date.now() - 10_000;
    // her "occupied" failed and is sent again after her "vacated" was recorded: she stays offline
    await b.hostedOccupancy(channel, false, t0 + 2000);
    await a.hostedOccupancy(channel, true, t0 + 1000);
    await a.settled(saraId);
    expect((await a.onlineAmong([saraId])).has(saraId)).toBe(false);
    expect(toldAcme()).toEqual([]);
    // online again; a late copy of the old "vacated" does not take her offline
    await a.hostedOccupancy(channel, true, t0 + 3000);
    await b.hostedOccupancy(channel, false, t0 + 2000);
    await new Promise((resolve) => setTimeout(resolve, GRACE_MS * 2));
    await Promise.all([a.settled(saraId), b.settled(saraId)]);
    expect((await b.onlineAmong([saraId])).has(saraId)).toBe(true);
    expect(toldAcme()).toEqual([true]);
  });

  it('a clean stop lets go of what its sockets held, even a hold taken while it stopped', async () => {
    const { a, b } = await fresh();
    b.channelOccupancy(userChannelName(saraId), true);
    await b.settled(saraId);
    expect((await a.onlineAmong([saraId])).has(saraId)).toBe(true);
    services.splice(services.indexOf(b), 1);
    const closing = b.close();
    // a socket arriving during the stop is not held (it will reconnect elsewhere)
    b.channelOccupancy(userChannelName(omarId), true);
    await closing;
    await until(async () => !(await a.onlineAmong([saraId])).has(saraId), 'Sara let go');
    expect((await a.onlineAmong([omarId])).has(omarId)).toBe(false);
  });

  it('hosted: an instance that stops does not let the hosted service’s users go', async () => {
    const { a, b } = await fresh();
    await b.hostedOccupancy(userChannelName(saraId), true, Date.now());
    await b.settled(saraId);
    services.splice(services.indexOf(b), 1);
    await b.close();
    expect((await a.onlineAmong([saraId])).has(saraId)).toBe(true);
    expect(toldAcme()).toEqual([true]);
  });

  it('a crashed instance’s holds are released once, by one sweeper, and never while it is alive', async () => {
    prefix = `presence-test-${randomUUID()}`;
    // the watcher, online through it, and a sweeper that sweeps often
    const watcher = await instance();
    watcher.channelOccupancy(userChannelName(acmeId), true);
    await watcher.settled(acmeId);
    const crashing = new RedisPresenceStore(settings.redisUrl, prefix);
    await crashing.ready();
    await until(
      async () => (await redis.smembers(`${prefix}:presence:instances`)).length === 2,
      'both instances listed',
    );
    expect(await crashing.hold(saraId)).toBe(true);
    // alive: a sweep takes nothing
    const sweepers = [
      new RedisPresenceStore(settings.redisUrl, prefix),
      new RedisPresenceStore(settings.redisUrl, prefix),
    ];
    await Promise.all(sweepers.map((store) => store.ready()));
    expect(await sweepers[0]!.sweep()).toEqual([]);
    expect((await watcher.onlineAmong([saraId])).has(saraId)).toBe(true);
    await crashHolderOf(saraId);
    const swept = await Promise.all(sweepers.map((store) => store.sweep()));
    // exactly one of the two concurrent sweeps released her
    expect(swept.flat()).toEqual([saraId]);
    expect((await watcher.onlineAmong([saraId])).has(saraId)).toBe(false);
    for (const store of [...sweepers, crashing]) await store.close();
  });

  it('the sweep tells online partners one by one, through each user’s queue', async () => {
    prefix = `presence-test-${randomUUID()}`;
    const sweeper = await instance(100);
    sweeper.channelOccupancy(userChannelName(acmeId), true);
    await sweeper.settled(acmeId);
    const crashing = new RedisPresenceStore(settings.redisUrl, prefix);
    await crashing.ready();
    await until(
      async () => (await redis.smembers(`${prefix}:presence:instances`)).length === 2,
      'both instances listed',
    );
    await crashing.hold(saraId);
    await crashHolderOf(saraId);
    await until(() => toldAcme().length === 1, 'Acme told Sara left');
    expect(toldAcme()).toEqual([false]);
    await crashing.close();
  });
});
