import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { randomToken } from '../../lib/crypto.js';
import { SESSION_COOKIE } from '../../plugins/auth.js';
import { conversationUrl } from '../notifications/notification-email.js';
import { OMAR, SARA } from '../../../../test-support/accounts.js';
import {
  createTestApp,
  signIn,
  withTestKey,
  type TestContext,
} from '../../../../test-support/test-app.js';
import { paths } from '../../../shared/paths.js';

const dialect = inject('database');

const PUBLIC_URL = 'https://messages.board.example';
/** The host's sign-in page, with a query of its own that must be kept. */
const LOGIN_URL = 'https://jobs.example/account/sign-in?from=messenger';
const SSO_SECRET = 'pages-test-sso-secret-0123456789abcdef-0123';

/** The built client's two pages, as small as the server needs them. */
const makeWebRoot = () => {
  const webRoot = mkdtempSync(join(tmpdir(), 'web-'));
  writeFileSync(join(webRoot, 'index.html'), '<title>messages</title>__CSRF_TOKEN__');
  writeFileSync(join(webRoot, 'login.html'), '<title>own sign-in</title>__CSRF_TOKEN__');
  return webRoot;
};

/** The host's sign-in page named by a redirect, and the `return_to` it was given. */
const hostSignIn = (response: LightMyRequestResponse) => {
  expect(response.statusCode).toBe(302);
  const location = new URL(String(response.headers.location));
  expect(`${location.origin}${location.pathname}`).toBe('https://jobs.example/account/sign-in');
  expect(location.searchParams.get('from')).toBe('messenger');
  expect(location.searchParams.getAll('return_to')).toHaveLength(1);
  return location.searchParams.get('return_to');
};

/** A sign-in link's token as the host makes it (HS256 with SSO_SECRET, 5 minutes, a fresh jti). */
const mint = (claims: Record<string, unknown>) => {
  const iat = Math.floor(Date.now() / 1000);
  return new SignJWT({ iat, exp: iat + 300, jti: randomToken(12), ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(SSO_SECRET));
};

describe(`reaching the page without a session, with LOGIN_URL (${dialect})`, () => {
  let ctx: TestContext;
  let webRoot: string;
  beforeAll(async () => {
    webRoot = makeWebRoot();
    ctx = await createTestApp(dialect, { PUBLIC_URL, LOGIN_URL, SSO_SECRET }, { webRoot });
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(webRoot, { recursive: true, force: true });
  });

  const get = (url: string, cookies: Record<string, string> = {}, host?: string) =>
    ctx.app.inject({ method: 'GET', url, cookies, headers: host ? { host } : {} });

  it('sends /messages… to LOGIN_URL with return_to = PUBLIC_URL + that path and query, whatever the Host', async () => {
    const response = await get('/messages?target=3&tab=1&lang=ar', {}, 'evil.example');
    expect(hostSignIn(response)).toBe(`${PUBLIC_URL}/messages?target=3&tab=1&lang=ar`);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(hostSignIn(await get('/messages'))).toBe(`${PUBLIC_URL}/messages`);
    // the home page leads to /messages, and on from there
    const home = await get('/');
    expect(home.headers.location).toBe('/messages');
  });

  it('sends a notification e-mail’s link back to itself through LOGIN_URL', async () => {
    const link = conversationUrl(ctx.config.publicUrl, 12, 34);
    const url = new URL(link);
    expect(url.origin).toBe(PUBLIC_URL);
    expect(hostSignIn(await get(`${url.pathname}${url.search}`))).toBe(link);
  });

  it('sends GET /login to LOGIN_URL with return_to = PUBLIC_URL/messages (or its own `next`)', async () => {
    expect(hostSignIn(await get(paths.login, {}, 'evil.example'))).toBe(`${PUBLIC_URL}/messages`);
    expect(hostSignIn(await get(`${paths.login}?lang=ar`))).toBe(`${PUBLIC_URL}/messages`);
    expect(
      hostSignIn(await get(`${paths.login}?next=${encodeURIComponent('/messages?tab=5')}`)),
    ).toBe(`${PUBLIC_URL}/messages?tab=5`);
    for (const foreign of ['//evil.example/messages', 'https://evil.example/', '/\\evil.example'])
      expect(hostSignIn(await get(`${paths.login}?next=${encodeURIComponent(foreign)}`))).toBe(
        `${PUBLIC_URL}/messages`,
      );
  });

  it('sends a visitor who is signed in from /login straight on to /messages (or `next`), and serves them the page', async () => {
    const session = await signIn(ctx.app, SARA.email);
    const login = await get(paths.login, session.cookies);
    expect(login.statusCode).toBe(302);
    expect(login.headers.location).toBe('/messages');
    const withNext = await get(
      `${paths.login}?next=${encodeURIComponent('/messages?tab=7')}`,
      session.cookies,
    );
    expect(withNext.headers.location).toBe('/messages?tab=7');
    // a `next` of /login itself would go round in circles: on to /messages
    for (const next of ['/login', '/login?next=%2Flogin'])
      expect(
        (await get(`${paths.login}?next=${encodeURIComponent(next)}`, session.cookies)).headers
          .location,
        next,
      ).toBe('/messages');
    const page = await get('/messages?tab=7', session.cookies);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>messages</title>');
  });

  it('after sign-out (204): /login and any later /messages visit go to LOGIN_URL', async () => {
    const session = await signIn(ctx.app, OMAR.email);
    expect((await get(paths.messages, session.cookies)).statusCode).toBe(200);
    const out = await session.call('POST', paths.logout);
    expect(out.statusCode).toBe(204);
    expect(hostSignIn(await get(paths.login, session.cookies))).toBe(`${PUBLIC_URL}/messages`);
    expect(hostSignIn(await get(paths.messages, session.cookies))).toBe(`${PUBLIC_URL}/messages`);
  });

  it('a session that ended while the page was open: its calls answer 401, and the page’s way to sign in (/login?next=<its URL>) ends at LOGIN_URL with return_to = that URL', async () => {
    const session = await signIn(ctx.app, OMAR.email);
    // the session ends elsewhere (signed out on another device with the same session, or expired)
    expect((await session.call('POST', paths.logout)).statusCode).toBe(204);
    expect((await session.call('GET', paths.initialData)).statusCode).toBe(401);
    const pageUrl = '/messages?target=4&tab=9';
    expect(
      hostSignIn(await get(`${paths.login}?next=${encodeURIComponent(pageUrl)}`, session.cookies)),
    ).toBe(`${PUBLIC_URL}${pageUrl}`);
  });

  it('round trip: the host signs the user in with a link whose `next` is return_to’s path and query, and they land there', async () => {
    const sub = `host-user-${randomToken(6)}`;
    const returnTo = hostSignIn(await get('/messages?target=2&tab=3'));
    const back = new URL(String(returnTo));
    const next = `${back.pathname}${back.search}`;
    expect(next).toBe('/messages?target=2&tab=3');
    const token = await mint({ sub, role: 'candidate', name: 'Host Candidate', next });
    const sso = await get(`${paths.sso}?token=${encodeURIComponent(token)}`);
    expect(sso.statusCode).toBe(303);
    expect(sso.headers.location).toBe(next);
    const cookie = sso.cookies.find((item) => item.name === SESSION_COOKIE)?.value ?? '';
    const page = await get(String(sso.headers.location), { [SESSION_COOKIE]: cookie });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>messages</title>');
    const data = await ctx.app.inject({
      method: 'GET',
      url: withTestKey(paths.initialData),
      cookies: { [SESSION_COOKIE]: cookie },
    });
    expect(data.json().auth.name).toBe('Host Candidate');
  });

  it('a link with both a `next` claim and a `next` parameter lands on the claim', async () => {
    const claimed = '/messages?target=2&tab=3';
    const token = await mint({
      sub: `host-user-${randomToken(6)}`,
      role: 'company',
      name: 'Host Company',
      next: claimed,
    });
    const sso = await get(
      `${paths.sso}?token=${encodeURIComponent(token)}&next=${encodeURIComponent('/messages?tab=999')}`,
    );
    expect(sso.statusCode).toBe(303);
    expect(sso.headers.location).toBe(claimed);
    // and the parameter alone is used when there is no claim
    const unclaimed = await mint({
      sub: `host-user-${randomToken(6)}`,
      role: 'candidate',
      name: 'C',
    });
    const withParameter = await get(
      `${paths.sso}?token=${encodeURIComponent(unclaimed)}&next=${encodeURIComponent('/messages?tab=999')}`,
    );
    expect(withParameter.headers.location).toBe('/messages?tab=999');
  });
});

describe(`reaching the page without a session, without LOGIN_URL (${dialect})`, () => {
  let ctx: TestContext;
  let webRoot: string;
  beforeAll(async () => {
    webRoot = makeWebRoot();
    ctx = await createTestApp(dialect, { PUBLIC_URL }, { webRoot });
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(webRoot, { recursive: true, force: true });
  });

  it('sends /messages… to the messenger’s own /login?next=…, which serves its sign-in page', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/messages?target=3&tab=1' });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(
      `${paths.login}?next=${encodeURIComponent('/messages?target=3&tab=1')}`,
    );
    const login = await ctx.app.inject({ method: 'GET', url: String(response.headers.location) });
    expect(login.statusCode).toBe(200);
    expect(login.body).toContain('<title>own sign-in</title>');
    // signed in, /login is still the page (no redirect without LOGIN_URL)
    const session = await signIn(ctx.app, SARA.email);
    const again = await ctx.app.inject({
      method: 'GET',
      url: paths.login,
      cookies: session.cookies,
    });
    expect(again.statusCode).toBe(200);
  });
});
