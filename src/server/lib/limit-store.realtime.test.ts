import { randomBytes } from 'node:crypto';
import { settings } from '../../../test-support/settings.js';
import { MemoryLimitStore, RedisLimitStore, type LimitStore } from './limit-store.js';

const redisUrl = settings.redisUrl;

describe('limit store in memory', () => {
  it('refills a token bucket with time and tells how long to wait', async () => {
    let now = 0;
    const store = new MemoryLimitStore(() => now);
    const takes = [];
    for (let index = 0; index < 4; index += 1) takes.push(await store.take('k', 3, 1));
    expect(takes.slice(0, 3)).toEqual([0, 0, 0]);
    expect(takes[3]).toBeCloseTo(1, 5);
    now = 1_000;
    expect(await store.take('k', 3, 1)).toBe(0);
    expect(await store.take('k', 3, 1)).toBeGreaterThan(0);
  });

  it('counts failures until they lapse, blocks for a while, and forgets expired keys', async () => {
    let now = 0;
    const store = new MemoryLimitStore(() => now);
    expect(await store.addFailure('a', 1_000)).toBe(1);
    expect(await store.addFailure('a', 1_000)).toBe(2);
    await store.block('a', 500);
    expect(await store.blockedFor('a')).toBe(500);
    now = 600;
    expect(await store.blockedFor('a')).toBe(0);
    expect(await store.failures('a')).toBe(2);
    now = 1_700;
    expect(await store.failures('a')).toBe(0);
    // Thousands of one-off keys do not stay once expired.
    for (let index = 0; index < 5_000; index += 1) await store.addFailure(`spray-${index}`, 10);
    now = 10_000;
    for (let index = 0; index < 1_000; index += 1) await store.take(`other-${index}`, 1, 1);
    expect(store.size()).toBeLessThanOrEqual(1_000);
  });
});

describe('limit store in Redis', () => {
  const stores: LimitStore[] = [];
  const open = (prefix: string, url = redisUrl) => {
    const store = new RedisLimitStore(url, prefix);
    stores.push(store);
    return store;
  };
  afterAll(async () => Promise.all(stores.map((store) => store.close())));

  it('is one limit for every instance sharing the prefix', async () => {
    const prefix = `test-limits-${randomBytes(4).toString('hex')}`;
    const [first, second] = [open(prefix), open(prefix)];
    const waits = [];
    for (let index = 0; index < 3; index += 1) {
      waits.push(await first.take('send', 4, 0.01));
      waits.push(await second.take('send', 4, 0.01));
    }
    expect(waits.filter((wait) => wait === 0)).toHaveLength(4);
    expect(await first.addFailure('login', 60_000)).toBe(1);
    expect(await second.addFailure('login', 60_000)).toBe(2);
    await first.block('login', 30_000);
    expect(await second.blockedFor('login')).toBeGreaterThan(29_000);
    await second.reset('login');
    expect(await first.blockedFor('login')).toBe(0);
    expect(await first.failures('login')).toBe(0);
  });

  it('falls back to counting in memory while Redis is unreachable', async () => {
    const errors: unknown[] = [];
    const store = new RedisLimitStore('redis://127.0.0.1:1', 'unreachable', (error) =>
      errors.push(error),
    );
    stores.push(store);
    expect(await store.take('k', 1, 0.01)).toBe(0);
    expect(await store.take('k', 1, 0.01)).toBeGreaterThan(0);
    expect(await store.addFailure('f', 1_000)).toBe(1);
    expect(errors.length).toBeGreaterThan(0);
  });
});
