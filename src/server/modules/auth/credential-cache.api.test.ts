/**
 * Sessions and tokens are remembered between requests (no lookup per request), so what
 * ends them must reach every instance at once: two apps on one database sharing Redis, the real
 * database and the real Redis.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { paths } from '../../../shared/paths.js';
import { integrationPaths } from '../../../shared/integration.js';
import { ACME, SARA } from '../../../../test-support/accounts.js';
import { uniqueAppId } from '../../../../test-support/server-process.js';
import { settings } from '../../../../test-support/settings.js';
import {
  createTestApp,
  issueToken,
  signIn,
  withTestKey,
  type TestContext,
} from '../../../../test-support/test-app.js';
import { buildApp } from '../../app.js';
import { randomToken, sha256 } from '../../lib/crypto.js';
import { until } from '../../../../test-support/wait.js';
import { createCredentialCache } from './credential-cache.js';

const dialect = inject('database');
const INTEGRATION_KEY = 'integration-key-cache-0123456789abcdef0123456789';

describe(`remembered credentials over two instances (${dialect})`, () => {
  let ctx: TestContext;
  /** A second instance: same database, same Redis, same deployment. */
  let other: FastifyInstance;

  beforeAll(async () => {
    ctx = await createTestApp(dialect, {
      REDIS_URL: settings.redisUrl,
      PUSHER_APP_ID: uniqueAppId('credentials'),
      INTEGRATION_KEYS: INTEGRATION_KEY,
    });
    ({ app: other } = await buildApp({
      config: ctx.config,
      db: ctx.database.db,
      startOutboxWorker: false,
    }));
    await other.ready();
    // both instances listen for invalidations before the tests start
    await until(
      async () => (await settingsWithToken(other, await issueToken(ctx.app, ACME.email))) === 200,
      'the other instance listens',
      5_000,
    );
  });
  afterAll(async () => {
    await other.close();
    await ctx.close();
  });

  const settingsWithToken = async (app: FastifyInstance, token: string) =>
    (
      await app.inject({
        method: 'GET',
        url: withTestKey(paths.settings),
        headers: { authorization: `Bearer ${token}` },
      })
    ).statusCode;

  it('a token signed out on one instance is refused by the other at once', async () => {
    const token = await issueToken(ctx.app, SARA.email);
    // both instances have now seen (and remember) the token
    expect(await settingsWithToken(ctx.app, token)).toBe(200);
    expect(await settingsWithToken(other, token)).toBe(200);
    expect(await settingsWithToken(other, token)).toBe(200);

    const signOut = await ctx.app.inject({
      method: 'POST',
      url: paths.logout,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(signOut.statusCode).toBe(204);
    await until(
      async () => (await settingsWithToken(other, token)) === 401,
      'the other instance refuses the token',
      2_000,
    );
    expect(await settingsWithToken(ctx.app, token)).toBe(401);
  });

  it('a session signed out on one instance is refused by the other', async () => {
    const session = await signIn(ctx.app, SARA.email);
    const onOther = () =>
      other.inject({
        method: 'GET',
        url: withTestKey(paths.settings),
        cookies: session.cookies,
      });
    expect((await onOther()).statusCode).toBe(200);
    const signOut = await session.call('POST', paths.logout);
    expect(signOut.statusCode).toBe(204);
    await until(
      async () => (await onOther()).statusCode === 401,
      'the other instance refuses the session',
      2_000,
    );
    expect((await session.call('GET', paths.settings)).statusCode).toBe(401);
  });

  it('an erased user is refused by every instance; a renamed one is seen renamed', async () => {
    const externalId = `cache-${randomToken(6)}`;
    const put = (name: string) =>
      ctx.app.inject({
        method: 'PUT',
        url: integrationPaths.user(externalId),
        headers: { authorization: `Bearer ${INTEGRATION_KEY}` },
        payload: { role: 'candidate', name },
      });
    expect((await put('Before Rename')).statusCode).toBe(201);
    const user = await ctx.database.db.kysely
      .selectFrom('users')
      .select('id')
      .where('external_id', '=', externalId)
      .executeTakeFirstOrThrow();
    // a token of this host-made user (it has no password to ask one with)
    const token = `jbm_pat_${randomToken()}`;
    const now = Date.now();
    await ctx.database.db.kysely
      .insertInto('api_tokens')
      .values({
        user_id: user.id,
        token_hash: sha256(token),
        name: 'test',
        created_at: new Date(now).toISOString(),
        expires_at: new Date(now + 3_600_000).toISOString(),
        last_used_at: null,
      })
      .execute();
    const tokenRow = () =>
      ctx.database.db.kysely
        .selectFrom('api_tokens')
        .select('id')
        .where('user_id', '=', user.id)
        .executeTakeFirst();
    const nameSeenByOther = async () => {
      const response = await other.inject({
        method: 'GET',
        url: withTestKey(paths.initialData),
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.statusCode).toBe(200);
      return response.json<{ auth: { name: string } }>().auth.name;
    };
    expect(await nameSeenByOther()).toBe('Before Rename');
    expect((await put('After Rename')).statusCode).toBe(200);
    await until(
      async () => (await nameSeenByOther()) === 'After Rename',
      'the other instance sees the new name',
      2_000,
    );

    const erase = await ctx.app.inject({
      method: 'DELETE',
      url: integrationPaths.user(externalId),
      headers: { authorization: `Bearer ${INTEGRATION_KEY}` },
    });
    expect(erase.statusCode).toBe(204);
    expect(await tokenRow()).toBeUndefined();
    await until(
      async () => (await settingsWithToken(other, token)) === 401,
      'the other instance refuses the erased user',
      2_000,
    );
  });
});

describe('credential cache', () => {
  it('does not keep what was read before an invalidation that came meanwhile', async () => {
    const cache = createCredentialCache<string>({
      lifetimeMs: 60_000,
      maxEntries: 10,
      channel: 'x',
    });
    const readSince = cache.generation();
    await cache.forgetUser(7); // sign-out lands while the lookup runs
    cache.set('token:a', 7, 'stale', Date.now() + 60_000, readSince);
    expect(cache.get('token:a', Date.now())).toBeUndefined();
    cache.set('token:a', 7, 'fresh', Date.now() + 60_000, cache.generation());
    expect(cache.get('token:a', Date.now())).toBe('fresh');
    await cache.forgetUser(7);
    expect(cache.get('token:a', Date.now())).toBeUndefined();
    await cache.close();
  });

  it('forgets at the credential’s own expiry and keeps at most maxEntries', async () => {
    const cache = createCredentialCache<string>({
      lifetimeMs: 60_000,
      maxEntries: 2,
      channel: 'x',
    });
    const now = Date.now();
    cache.set('a', 1, 'a', now + 1_000, cache.generation());
    expect(cache.get('a', now + 999)).toBe('a');
    expect(cache.get('a', now + 1_000)).toBeUndefined();
    for (const key of ['b', 'c', 'd']) cache.set(key, 2, key, now + 60_000, cache.generation());
    expect(cache.get('b', now)).toBeUndefined();
    expect([cache.get('c', now), cache.get('d', now)]).toEqual(['c', 'd']);
    await cache.close();
  });

  it('remembers nothing while it cannot hear other instances (Redis unreachable)', async () => {
    const errors: unknown[] = [];
    const cache = createCredentialCache<string>({
      lifetimeMs: 60_000,
      maxEntries: 10,
      channel: 'x',
      redisUrl: 'redis://127.0.0.1:1',
      onError: (error) => errors.push(error),
    });
    cache.set('a', 1, 'a', Date.now() + 60_000, cache.generation());
    expect(cache.get('a', Date.now())).toBeUndefined();
    await cache.forgetUser(1); // answers, even with Redis away
    await cache.close();
  });
});
