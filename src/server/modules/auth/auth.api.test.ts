import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../app.js';
import { randomToken } from '../../lib/crypto.js';
import { createTestApp, signIn, withKey, type TestContext } from '../../test-support/test-app.js';

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
      url: '/login',
      payload: body as Record<string, string>,
      cookies: xsrf ? { 'XSRF-TOKEN': xsrf, ...cookies } : cookies,
      headers: xsrf ? { 'x-xsrf-token': xsrf } : {},
    });

  it('signs in with the demo password, sets an httpOnly session cookie and a readable XSRF cookie', async () => {
    const response = await postLogin(
      { email: 'candidate@example.com', password: 'password' },
      randomToken(),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      user: { id: expect.any(Number), name: 'Sara Haddad', role: 'candidate' },
    });
    const session = response.cookies.find((cookie) => cookie.name === 'messenger_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    const xsrf = response.cookies.find((cookie) => cookie.name === 'XSRF-TOKEN');
    expect(xsrf?.httpOnly).toBeFalsy();
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
    const wrong = await postLogin(
      { email: 'company2@example.com', password: 'nope' },
      randomToken(),
    );
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toMatch(/credentials/);
    const malformed = await postLogin({ email: 'not-an-email', password: 'x' }, randomToken());
    expect(malformed.statusCode).toBe(422);
    expect(malformed.json().errors).toHaveProperty('email');
  });

  it('refuses a sign-in without the CSRF header (419)', async () => {
    const response = await postLogin(
      { email: 'candidate@example.com', password: 'password' },
      null,
    );
    expect(response.statusCode).toBe(419);
    expect(response.json()).toEqual({ message: 'CSRF token mismatch.' });
    const mismatched = await ctx.app.inject({
      method: 'POST',
      url: '/login',
      payload: { email: 'candidate@example.com', password: 'password' },
      cookies: { 'XSRF-TOKEN': 'one' },
      headers: { 'x-xsrf-token': 'another' },
    });
    expect(mismatched.statusCode).toBe(419);
  });

  it('throttles repeated failures with 429 and Retry-After, even with the right password afterwards', async () => {
    const email = 'owner@example.com';
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
    const first = await signIn(ctx.app, 'company@example.com');
    const before = await first.call('GET', '/load/messengers/initial/data');
    expect(before.statusCode).toBe(200);
    const again = await postLogin(
      { email: 'company@example.com', password: 'password' },
      first.csrf,
      { messenger_session: first.cookies.messenger_session ?? '' },
    );
    expect(again.statusCode).toBe(200);
    const rotated = again.cookies.find((cookie) => cookie.name === 'messenger_session')?.value;
    expect(rotated).toBeTruthy();
    expect(rotated).not.toBe(first.cookies.messenger_session);
    const stale = await first.call('GET', '/load/messengers/initial/data');
    expect(stale.statusCode).toBe(401);
  });

  it('signs out (204) and the session is gone server-side', async () => {
    const session = await signIn(ctx.app, 'candidate2@example.com');
    const withoutCsrf = await ctx.app.inject({
      method: 'POST',
      url: '/logout',
      cookies: session.cookies,
    });
    expect(withoutCsrf.statusCode).toBe(419);
    const out = await session.call('POST', '/logout');
    expect(out.statusCode).toBe(204);
    expect((await session.call('GET', '/load/messengers/initial/data')).statusCode).toBe(401);
  });

  it('issues personal access tokens (201), stored hashed, usable as Bearer or token parameter without CSRF', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/tokens',
      payload: { email: 'company@example.com', password: 'password' },
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
      url: withKey('/load/messengers/initial/data'),
      headers: { authorization: `Bearer ${token}` },
    });
    expect(bearer.statusCode).toBe(200);
    expect(bearer.json().auth.name).toBe('Acme Robotics');
    const query = await ctx.app.inject({
      method: 'POST',
      url: `/user/messenger/${bearer.json().messengerUsers[0].id}/archive?key=test-app-key&token=${token}`,
    });
    expect(query.statusCode).toBe(200);
    const bad = await ctx.app.inject({
      method: 'GET',
      url: withKey('/load/messengers/initial/data'),
      headers: { authorization: 'Bearer not-a-token' },
    });
    expect(bad.statusCode).toBe(401);
    const wrongPassword = await ctx.app.inject({
      method: 'POST',
      url: '/api/tokens',
      payload: { email: 'company@example.com', password: 'x' },
    });
    expect(wrongPassword.statusCode).toBe(401);
  });

  it('lists the demo accounts in demo mode', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/demo-accounts' });
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
      const page = await app.inject({ method: 'GET', url: '/login' });
      expect(page.statusCode).toBe(200);
      const cookie = page.cookies.find((item) => item.name === 'XSRF-TOKEN')?.value;
      expect(cookie).toBeTruthy();
      expect(page.body).toContain(`content="${cookie}"`);
      const signedOut = await app.inject({ method: 'GET', url: '/messages?target=3&tab=1' });
      expect(signedOut.statusCode).toBe(302);
      expect(signedOut.headers.location).toBe(
        `/login?next=${encodeURIComponent('/messages?target=3&tab=1')}`,
      );
      const session = await signIn(app, 'candidate@example.com');
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
