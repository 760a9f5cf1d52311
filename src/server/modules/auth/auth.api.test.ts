import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../app.js';
import { randomToken } from '../../lib/crypto.js';
import { accountLockMs } from './auth.service.js';
import { ACME, HARBOR, NILE, OMAR, SARA } from '../../../../test-support/accounts.js';
import {
  createTestApp,
  signIn,
  withTestKey,
  type TestContext,
} from '../../../../test-support/test-app.js';
import { paths } from '../../../shared/paths.js';
import { XSRF_COOKIE } from '../../plugins/auth.js';

const dialect = inject('database');

describe(`sign-in and forgery protection (${dialect})`, () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp(dialect);
  });
  afterAll(async () => ctx.close());

  const postLogin = (body: unknown, xsrf: string | null, cookies: Record<string, string> = {}) =>
    ctx.app.inject({
      method: 'POST',
      url: paths.login,
      payload: body as Record<string, string>,
      cookies: xsrf ? { 'XSRF-TOKEN': xsrf, ...cookies } : cookies,
      headers: xsrf ? { 'x-xsrf-token': xsrf } : {},
    });

  it('signs in with the demo password, sets an httpOnly session cookie and a readable XSRF cookie', async () => {
    const response = await postLogin({ email: SARA.email, password: 'password' }, randomToken());
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      user: { id: expect.any(Number), name: 'Sara Haddad', role: 'candidate', suspended: false },
    });
    const session = response.cookies.find((cookie) => cookie.name === 'messenger_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    const xsrf = response.cookies.find((cookie) => cookie.name === 'XSRF-TOKEN');
    expect(xsrf?.httpOnly).toBeFalsy();
  });

  it('finds the account whatever the case of the e-mail typed', async () => {
    const shouted = SARA.email.toUpperCase();
    const capitalized = SARA.email.replace(/^./, (first) => first.toUpperCase());
    for (const email of [shouted, capitalized]) {
      const response = await postLogin({ email, password: 'password' }, randomToken());
      expect(response.statusCode, email).toBe(200);
      expect(response.json()).toMatchObject({ user: { name: 'Sara Haddad' } });
    }
  });

  it('stores passwords as salted scrypt hashes, never in plain text', async () => {
    const rows = await ctx.database.db.kysely.selectFrom('users').select('password_hash').execute();
    expect(rows.length).toBeGreaterThan(5);
    for (const row of rows) {
      expect(row.password_hash).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[\w-]+\$[\w-]+$/);
      expect(row.password_hash).not.toContain('password');
    }
  });

  it('answers 401 for wrong credentials and 422 for a malformed email', async () => {
    const wrong = await postLogin({ email: NILE.email, password: 'nope' }, randomToken());
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toMatch(/credentials/);
    const malformed = await postLogin({ email: 'not-an-email', password: 'x' }, randomToken());
    expect(malformed.statusCode).toBe(422);
    expect(malformed.json().errors).toHaveProperty('email');
  });

  it('refuses a sign-in without the CSRF header (419)', async () => {
    const response = await postLogin({ email: SARA.email, password: 'password' }, null);
    expect(response.statusCode).toBe(419);
    expect(response.json()).toEqual({ message: 'CSRF token mismatch.' });
    const mismatched = await ctx.app.inject({
      method: 'POST',
      url: paths.login,
      payload: { email: SARA.email, password: 'password' },
      cookies: { 'XSRF-TOKEN': 'one' },
      headers: { 'x-xsrf-token': 'another' },
    });
    expect(mismatched.statusCode).toBe(419);
  });

  it('throttles repeated failures with 429 and Retry-After, even with the right password afterwards', async () => {
    const email = HARBOR.email;
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      statuses.push(
        (await postLogin({ email, password: `wrong-${attempt}` }, randomToken())).statusCode,
      );
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses[5]).toBe(429);
    const blocked = await postLogin({ email, password: 'password' }, randomToken());
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('rotates the session id at sign-in: the previous session stops working', async () => {
    const first = await signIn(ctx.app, ACME.email);
    const before = await first.call('GET', paths.initialData);
    expect(before.statusCode).toBe(200);
    const again = await postLogin({ email: ACME.email, password: 'password' }, first.csrf, {
      messenger_session: first.cookies.messenger_session ?? '',
    });
    expect(again.statusCode).toBe(200);
    const rotated = again.cookies.find((cookie) => cookie.name === 'messenger_session')?.value;
    expect(rotated).toBeTruthy();
    expect(rotated).not.toBe(first.cookies.messenger_session);
    const stale = await first.call('GET', paths.initialData);
    expect(stale.statusCode).toBe(401);
  });

  it('refuses (419) a change whose header matches a planted XSRF cookie but not the session’s token', async () => {
    // A sibling subdomain (or a man in the middle on http) can plant the XSRF-TOKEN cookie; the
    // token that counts for a session is the one stored with it, never the cookie's.
    const session = await signIn(ctx.app, OMAR.email);
    const planted = 'planted-by-an-attacker-0123456789';
    expect(planted).not.toBe(session.csrf);
    const cookies = { ...session.cookies, [XSRF_COOKIE]: planted };
    for (const [method, url] of [
      ['POST', paths.logout],
      ['PATCH', withTestKey(paths.settings)],
      ['POST', withTestKey(paths.archive(1))],
    ] as const) {
      const response = await ctx.app.inject({
        method,
        url,
        cookies,
        headers: { 'x-xsrf-token': planted },
        payload: {},
      });
      expect(response.statusCode, `${method} ${url}`).toBe(419);
    }
    // The session was not signed out, and its own token still works.
    expect((await session.call('GET', paths.initialData)).statusCode).toBe(200);
  });

  it('signs out (204) and the session is gone server-side', async () => {
    const session = await signIn(ctx.app, OMAR.email);
    const withoutCsrf = await ctx.app.inject({
      method: 'POST',
      url: paths.logout,
      cookies: session.cookies,
    });
    expect(withoutCsrf.statusCode).toBe(419);
    const out = await session.call('POST', paths.logout);
    expect(out.statusCode).toBe(204);
    expect((await session.call('GET', paths.initialData)).statusCode).toBe(401);
  });

  it('issues personal access tokens (201), stored hashed, usable as Bearer or token parameter without CSRF', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: paths.tokens,
      payload: { email: ACME.email, password: 'password' },
    });
    expect(response.statusCode).toBe(201);
    const { token } = response.json() as { token: string };
    const stored = await ctx.database.db.kysely
      .selectFrom('api_tokens')
      .select('token_hash')
      .execute();
    expect(stored.some((row) => row.token_hash === token)).toBe(false);

    const bearer = await ctx.app.inject({
      method: 'GET',
      url: withTestKey(paths.initialData),
      headers: { authorization: `Bearer ${token}` },
    });
    expect(bearer.statusCode).toBe(200);
    expect(bearer.json().auth.name).toBe('Acme Robotics');
    const query = await ctx.app.inject({
      method: 'POST',
      url: `${paths.archive(bearer.json().messengerUsers[0].id)}?key=test-app-key&token=${token}`,
    });
    expect(query.statusCode).toBe(200);
    const bad = await ctx.app.inject({
      method: 'GET',
      url: withTestKey(paths.initialData),
      headers: { authorization: 'Bearer not-a-token' },
    });
    expect(bad.statusCode).toBe(401);
    const wrongPassword = await ctx.app.inject({
      method: 'POST',
      url: paths.tokens,
      payload: { email: ACME.email, password: 'x' },
    });
    expect(wrongPassword.statusCode).toBe(401);
  });

  it('lists the demo accounts in demo mode', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: paths.demoAccounts });
    // The contract's list, written out (the literals are what this test is about).
    expect(response.json().accounts.map((account: { email: string }) => account.email)).toEqual([
      'candidate@example.com',
      'candidate2@example.com',
      'company@example.com',
      'company2@example.com',
      'owner@example.com',
    ]);
  });

  it('serves the sign-in page with an XSRF cookie and the same token in the csrf-token meta', async () => {
    const webRoot = mkdtempSync(join(tmpdir(), 'web-'));
    writeFileSync(
      join(webRoot, 'login.html'),
      '<meta name="csrf-token" content="__CSRF_TOKEN__" />',
    );
    writeFileSync(
      join(webRoot, 'index.html'),
      '<meta name="csrf-token" content="__CSRF_TOKEN__" />',
    );
    const { app } = await buildApp({ config: ctx.config, db: ctx.database.db, webRoot });
    try {
      const page = await app.inject({ method: 'GET', url: paths.login });
      expect(page.statusCode).toBe(200);
      const cookie = page.cookies.find((item) => item.name === 'XSRF-TOKEN')?.value;
      expect(cookie).toBeTruthy();
      expect(page.body).toContain(`content="${cookie}"`);
      const signedOut = await app.inject({ method: 'GET', url: '/messages?target=3&tab=1' });
      expect(signedOut.statusCode).toBe(302);
      expect(signedOut.headers.location).toBe(
        `${paths.login}?next=${encodeURIComponent('/messages?target=3&tab=1')}`,
      );
      const session = await signIn(app, SARA.email);
      const messages = await app.inject({
        method: 'GET',
        url: '/messages',
        cookies: session.cookies,
      });
      expect(messages.statusCode).toBe(200);
      expect(messages.body).toContain(`content="${session.csrf}"`);
    } finally {
      await app.close();
    }
  });
});

describe(`personal access tokens (${dialect})`, () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp(dialect, { TOKENS_PER_USER: '3' });
  });
  afterAll(async () => ctx.close());

  const issue = async (email: string, name?: string) => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: paths.tokens,
      payload: { email, password: 'password', ...(name ? { name } : {}) },
    });
    return response;
  };
  const bearer = (token: string, method: 'GET' | 'DELETE' | 'POST', url: string) =>
    ctx.app.inject({ method, url, headers: { authorization: `Bearer ${token}` } });

  it('carry a recognisable prefix, are listed without their secret, and expire after the configured lifetime', async () => {
    const response = await issue(OMAR.email, 'CI bot');
    expect(response.statusCode).toBe(201);
    const { token } = response.json() as { token: string };
    expect(token).toMatch(/^jbm_pat_[\w-]{40,}$/);
    const list = await bearer(token, 'GET', paths.tokens);
    expect(list.statusCode).toBe(200);
    expect(list.headers['cache-control']).toBe('no-store');
    const [listed] = list.json().tokens as Record<string, unknown>[];
    expect(listed).toEqual({
      id: expect.any(Number),
      name: 'CI bot',
      created_at: expect.any(String),
      last_used_at: expect.any(String),
      expires_at: expect.any(String),
    });
    expect(JSON.stringify(list.json())).not.toContain(token.slice(8));
    const lifetimeDays =
      (Date.parse(String(listed?.expires_at)) - Date.parse(String(listed?.created_at))) /
      86_400_000;
    expect(lifetimeDays).toBeCloseTo(90, 3);
    // Past its expiry it authenticates nobody, even though it was just used (and is remembered).
    const shortLived = (await issue(OMAR.email, 'short')).json<{ token: string }>().token;
    await ctx.database.db.kysely
      .updateTable('api_tokens')
      .set({ expires_at: new Date(Date.now() + 600).toISOString() })
      .where('name', '=', 'short')
      .execute();
    expect((await bearer(shortLived, 'GET', paths.tokens)).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect((await bearer(shortLived, 'GET', paths.tokens)).statusCode).toBe(401);
  });

  it('are revoked by DELETE /api/tokens/{id} (only the owner’s) and by signing out with them', async () => {
    const first = (await issue(NILE.email)).json().token as string;
    const second = (await issue(NILE.email)).json().token as string;
    const other = (await issue(SARA.email)).json().token as string;
    const ids = ((await bearer(first, 'GET', paths.tokens)).json().tokens as { id: number }[]).map(
      (item) => item.id,
    );
    expect(ids).toHaveLength(2);
    // Someone else's token id: 404, nothing revoked.
    expect((await bearer(other, 'DELETE', paths.token(ids[0]!))).statusCode).toBe(404);
    expect((await bearer(second, 'DELETE', paths.token(ids[1]!))).statusCode).toBe(204);
    expect((await bearer(first, 'GET', paths.tokens)).statusCode).toBe(401);
    expect((await bearer(second, 'GET', paths.tokens)).statusCode).toBe(200);
    // A session deletes with CSRF like any other change.
    const session = await signIn(ctx.app, NILE.email);
    const withoutCsrf = await ctx.app.inject({
      method: 'DELETE',
      url: paths.token(ids[0]!),
      cookies: session.cookies,
    });
    expect(withoutCsrf.statusCode).toBe(419);
    // Signing out with a token revokes it.
    expect((await bearer(second, 'POST', paths.logout)).statusCode).toBe(204);
    expect((await bearer(second, 'GET', paths.tokens)).statusCode).toBe(401);
    expect((await bearer(other, 'GET', paths.tokens)).statusCode).toBe(200);
  });

  it('are capped per user (422 naming the way out), expired ones not counted', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 4; index += 1)
      statuses.push((await issue(HARBOR.email)).statusCode);
    expect(statuses).toEqual([201, 201, 201, 422]);
    const refused = await issue(HARBOR.email);
    expect(refused.json().message).toMatch(/revoke/i);
    await ctx.database.db.kysely
      .updateTable('api_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('name', '=', 'API token')
      .execute();
    expect((await issue(HARBOR.email)).statusCode).toBe(201);
  });
});

describe('account lock backoff', () => {
  it('starts at 30 s once the allowance is used, doubles with each failure, and stops at 15 minutes', () => {
    expect(accountLockMs(4, 5)).toBe(0);
    expect(accountLockMs(5, 5)).toBe(30_000);
    expect(accountLockMs(6, 5)).toBe(60_000);
    expect(accountLockMs(8, 5)).toBe(240_000);
    expect(accountLockMs(10, 5)).toBe(900_000);
    expect(accountLockMs(500, 5)).toBe(900_000);
  });
});

describe(`sign-in throttling (${dialect})`, () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp(dialect, {
      TRUST_PROXY: '127.0.0.1',
      LOGIN_FAILURES_PER_ADDRESS: '10',
    });
  });
  afterAll(async () => ctx.close());

  const attempt = (email: string, password: string, address: string) => {
    const xsrf = randomToken();
    return ctx.app.inject({
      method: 'POST',
      url: paths.login,
      payload: { email, password },
      cookies: { 'XSRF-TOKEN': xsrf },
      headers: { 'x-xsrf-token': xsrf, 'x-forwarded-for': address },
    });
  };

  it('locks an account after 5 failures whatever the address, for longer after each further failure', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 5; index += 1)
      statuses.push(
        (await attempt('lina@example.com', 'wrong', `198.51.100.${index + 1}`)).statusCode,
      );
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    const fresh = await attempt('lina@example.com', 'password', '203.0.113.77');
    expect(fresh.statusCode).toBe(429);
    const firstWait = Number(fresh.headers['retry-after']);
    expect(firstWait).toBeGreaterThan(0);
    expect(firstWait).toBeLessThanOrEqual(30);
  });

  it('does not lock out correct passwords of other accounts behind an address that failed a lot', async () => {
    const shared = '192.0.2.10';
    const statuses: number[] = [];
    for (let index = 0; index < 14; index += 1)
      statuses.push((await attempt(`nobody-${index}@example.com`, 'guess', shared)).statusCode);
    expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429, 429, 429]);
    // Someone else behind the same address, with the right password, signs in.
    expect((await attempt('youssef@example.com', 'password', shared)).statusCode).toBe(200);
    // Another address is not concerned at all.
    expect((await attempt('nobody-x@example.com', 'guess', '192.0.2.11')).statusCode).toBe(401);
  });

  it('believes X-Forwarded-For only from a trusted proxy', async () => {
    // Without TRUST_PROXY, made-up forwarded addresses are all the one socket address.
    const untrusted = await createTestApp(dialect, { LOGIN_FAILURES_PER_ADDRESS: '3' });
    try {
      const statuses: number[] = [];
      for (let index = 0; index < 5; index += 1) {
        const xsrf = randomToken();
        const response = await untrusted.app.inject({
          method: 'POST',
          url: paths.login,
          payload: { email: `spray-${index}@example.com`, password: 'guess' },
          cookies: { 'XSRF-TOKEN': xsrf },
          headers: { 'x-xsrf-token': xsrf, 'x-forwarded-for': `10.0.0.${index}` },
        });
        statuses.push(response.statusCode);
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await untrusted.close();
    }
    // Behind a trusted proxy, each forwarded address has its own allowance.
    const statuses: number[] = [];
    for (let index = 0; index < 12; index += 1)
      statuses.push(
        (await attempt(`spray-${index}@example.com`, 'guess', `10.1.0.${index}`)).statusCode,
      );
    expect(statuses.every((status) => status === 401)).toBe(true);
  });
});
