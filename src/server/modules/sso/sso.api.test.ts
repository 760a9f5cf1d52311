import type { LightMyRequestResponse } from 'fastify';
import { SignJWT, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { buildApp } from '../../app.js';
import { openDatabase } from '../../db/database.js';
import { randomToken, sha256 } from '../../lib/crypto.js';
import { SESSION_COOKIE } from '../../plugins/auth.js';
import { DELETED_USER_NAME } from '../../../shared/models.js';
import { SARA } from '../../../../test-support/accounts.js';
import {
  createTestApp,
  signIn,
  withTestKey,
  type TestContext,
} from '../../../../test-support/test-app.js';
import { integrationPaths } from '../../../shared/integration.js';
import { paths } from '../../../shared/paths.js';

const dialect = inject('database');

const SECRET = 'sso-test-secret-0123456789abcdef-0123456789';
const INTEGRATION_KEY = 'sso-test-integration-key-0123456789abcdef';
const INVALID_TEXT = 'This sign-in link is invalid or has expired.';
const INVALID_TEXT_AR = 'رابط تسجيل الدخول هذا غير صالح أو انتهت صلاحيته.';

const nowSeconds = () => Math.floor(Date.now() / 1000);
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
let counter = 0;
/** A fresh external id per test: tests never share a user. */
const externalId = (label: string) => `host-${label}-${(counter += 1)}-${randomToken(4)}`;

interface MintOptions {
  secret?: string;
  alg?: string;
  /** Claims to leave out. */
  omit?: string[];
}

/** A sign-in link's token as a host would make it (HS256 with SECRET, 5 minutes, a fresh jti). */
const mint = async (claims: JWTPayload, options: MintOptions = {}): Promise<string> => {
  const iat = nowSeconds();
  const payload: JWTPayload = { iat, exp: iat + 300, jti: randomToken(12), ...claims };
  for (const claim of options.omit ?? []) delete payload[claim];
  return new SignJWT(payload)
    .setProtectedHeader({ alg: options.alg ?? 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(options.secret ?? SECRET));
};

const ssoUrl = (token: string, next?: string) =>
  `${paths.sso}?token=${encodeURIComponent(token)}${next === undefined ? '' : `&next=${encodeURIComponent(next)}`}`;

/** A candidate that does not exist yet, with what the link needs to create them. */
const newCandidate = (label: string) => ({
  sub: externalId(label),
  role: 'candidate',
  name: `Candidate ${label}`,
});

describe(`sign-in links /sso (${dialect})`, () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp(dialect, { SSO_SECRET: SECRET, INTEGRATION_KEYS: INTEGRATION_KEY });
  });
  afterAll(async () => ctx.close());

  const visit = (url: string, options: { cookies?: Record<string, string>; lang?: string } = {}) =>
    ctx.app.inject({
      method: 'GET',
      url,
      cookies: options.cookies ?? {},
      headers: options.lang ? { 'accept-language': options.lang } : {},
    });

  const sessionCookie = (response: LightMyRequestResponse) =>
    response.cookies.find((cookie) => cookie.name === SESSION_COOKIE)?.value;

  const initialData = (cookies: Record<string, string>) =>
    ctx.app.inject({ method: 'GET', url: withTestKey(paths.initialData), cookies });

  const userRow = (sub: string) =>
    ctx.database.db.kysely
      .selectFrom('users')
      .select(['id', 'role', 'name', 'email', 'image_url', 'logo', 'locale', 'erased_at'])
      .where('external_id', '=', sub)
      .executeTakeFirst();

  /** A refusal: 401, the short page saying so, no cookie of any kind. */
  const expectRefused = (response: LightMyRequestResponse, text = INVALID_TEXT) => {
    expect(response.statusCode).toBe(401);
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.body).toContain(text);
    expect(response.body).not.toMatch(/<script|style=/i);
  };

  /** A user who exists already (made by a first link). */
  const existingCandidate = async (label: string) => {
    const claims = newCandidate(label);
    expect((await visit(ssoUrl(await mint(claims)))).statusCode).toBe(303);
    return claims;
  };

  it('signs in with a valid link: 303 to /messages and a session cookie that works for the page’s calls', async () => {
    const claims = newCandidate('success');
    const response = await visit(ssoUrl(await mint(claims)));
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/messages');
    expect(response.headers['cache-control']).toBe('no-store');
    const session = response.cookies.find((cookie) => cookie.name === SESSION_COOKIE);
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    const xsrf = response.cookies.find((cookie) => cookie.name === 'XSRF-TOKEN');
    expect(xsrf?.value).toBeTruthy();

    const data = await initialData({ [SESSION_COOKIE]: session?.value ?? '' });
    expect(data.statusCode).toBe(200);
    const user = await userRow(claims.sub);
    expect(data.json().auth).toEqual({
      id: user?.id,
      name: claims.name,
      role: 'candidate',
      suspended: false,
    });
  });

  it('creates the user on first sign-in from the claims', async () => {
    const sub = externalId('jit');
    expect(await userRow(sub)).toBeUndefined();
    const response = await visit(
      ssoUrl(
        await mint({
          sub,
          role: 'company',
          name: 'Fresh Co',
          email: `${sub}@fresh.example`,
          image_url: 'https://cdn.example/fresh.png',
          locale: 'ar',
        }),
      ),
    );
    expect(response.statusCode).toBe(303);
    expect(await userRow(sub)).toMatchObject({
      role: 'company',
      name: 'Fresh Co',
      // stored in lower case (the external id may hold capitals)
      email: `${sub}@fresh.example`.toLowerCase(),
      image_url: 'https://cdn.example/fresh.png',
      logo: 'https://cdn.example/fresh.png',
      locale: 'ar',
      erased_at: null,
    });
  });

  it('updates the user on a later sign-in, and leaves them as they are when a link carries no profile', async () => {
    const claims = await existingCandidate('update');
    const before = await userRow(claims.sub);

    const renamed = await visit(
      ssoUrl(await mint({ ...claims, name: 'Renamed Candidate', locale: 'ar' })),
    );
    expect(renamed.statusCode).toBe(303);
    expect(await userRow(claims.sub)).toMatchObject({
      id: before?.id,
      name: 'Renamed Candidate',
      locale: 'ar',
    });

    // only `sub`: the known user signs in unchanged
    const bare = await visit(ssoUrl(await mint({ sub: claims.sub })));
    expect(bare.statusCode).toBe(303);
    expect(await userRow(claims.sub)).toMatchObject({ id: before?.id, name: 'Renamed Candidate' });

    // a name alone updates the name, keeping the role
    const nameOnly = await visit(ssoUrl(await mint({ sub: claims.sub, name: 'Third Name' })));
    expect(nameOnly.statusCode).toBe(303);
    expect(await userRow(claims.sub)).toMatchObject({ role: 'candidate', name: 'Third Name' });
  });

  it('rotates the session: the browser’s previous session ends and its live sockets are closed', async () => {
    const sara = await signIn(ctx.app, SARA.email);
    const claims = await existingCandidate('rotate');
    const closeSockets = vi.spyOn(ctx.realtime, 'closeSessionSockets');
    try {
      const response = await visit(ssoUrl(await mint({ sub: claims.sub })), {
        cookies: sara.cookies,
      });
      expect(response.statusCode).toBe(303);
      const fresh = sessionCookie(response);
      expect(fresh).toBeTruthy();
      expect(fresh).not.toBe(sara.cookies[SESSION_COOKIE]);
      expect(closeSockets).toHaveBeenCalledWith(sha256(sara.cookies[SESSION_COOKIE] ?? ''));
    } finally {
      closeSockets.mockRestore();
    }
    expect((await initialData(sara.cookies)).statusCode).toBe(401);
  });

  it('lands on the path the link’s `next` claim names', async () => {
    const claims = newCandidate('next-claim');
    const response = await visit(
      ssoUrl(await mint({ ...claims, next: '/messages?target=2&tab=3' })),
    );
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/messages?target=2&tab=3');
  });

  it('lands on the `next` query parameter when the link has no `next` claim', async () => {
    const response = await visit(
      ssoUrl(await mint(newCandidate('next-query')), '/messages?target=5&tab=7'),
    );
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/messages?target=5&tab=7');
  });

  it('prefers the `next` claim to the query parameter', async () => {
    const token = await mint({ ...newCandidate('next-both'), next: '/messages?tab=1' });
    const response = await visit(ssoUrl(token, '/messages?tab=2'));
    expect(response.headers.location).toBe('/messages?tab=1');
  });

  it('percent-encodes a destination with characters a Location header cannot carry', async () => {
    const token = await mint({ ...newCandidate('next-unicode'), next: '/messages?q=مرحبا' });
    const response = await visit(ssoUrl(token));
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`/messages?q=${encodeURIComponent('مرحبا')}`);
  });

  it.each([
    'https://evil.example/x',
    '//evil.example/x',
    '/\\evil.example/x',
    '\\\\evil.example',
    'javascript:alert(1)',
    '/\t/evil.example',
    'messages',
    '',
  ])('lands on /messages for a foreign `next` query parameter %j', async (next) => {
    const response = await visit(ssoUrl(await mint(newCandidate('foreign-query')), next));
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/messages');
  });

  it.each([
    'https://evil.example/x',
    '//evil.example/x',
    '/\\evil.example/x',
    'javascript:alert(1)',
    42,
  ])(
    'lands on /messages for a foreign `next` claim %j, even with a good query parameter',
    async (next) => {
      const token = await mint({ ...newCandidate('foreign-claim'), next });
      const response = await visit(ssoUrl(token, '/messages?tab=9'));
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe('/messages');
    },
  );

  /** `next` values that pass a check of the raw text but that the URL parser turns into "//evil…". */
  const DOT_SEGMENT_ESCAPES = [
    '/.//evil.example/phish',
    '/..//evil.example/phish',
    '/%2e//evil.example/phish',
    '/a/..//evil.example/phish',
    '/%2e%2e/%2e//evil.example/phish',
    '/%5C%5Cevil.example/phish',
  ];

  it.each(DOT_SEGMENT_ESCAPES)(
    'lands on /messages for a `next` query parameter that normalizes to another host %j',
    async (next) => {
      const response = await visit(ssoUrl(await mint(newCandidate('dot-query')), next));
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe('/messages');
    },
  );

  it.each(DOT_SEGMENT_ESCAPES)(
    'lands on /messages for a `next` claim that normalizes to another host %j',
    async (next) => {
      const token = await mint({ ...newCandidate('dot-claim'), next });
      const response = await visit(ssoUrl(token, '/messages?tab=9'));
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe('/messages');
    },
  );

  it('lands on the normalized path when dot segments stay on this site', async () => {
    const token = await mint({ ...newCandidate('dot-local'), next: '/a/%2e%2e/messages?tab=4' });
    const response = await visit(ssoUrl(token));
    expect(response.headers.location).toBe('/messages?tab=4');
  });

  it.each([
    ['only zero-width characters', '\u200b\u200d'],
    ['a line break', 'Candidate\nSupport'],
    ['a right-to-left override', 'Candidate \u202eevil'],
    ['an isolate', '\u2066Candidate'],
  ])(
    'refuses a link whose name has %s, like any bad link, and creates no user',
    async (_label, name) => {
      const claims = { ...newCandidate('bad-name'), name };
      expectRefused(await visit(ssoUrl(await mint(claims))));
      expect(await userRow(claims.sub)).toBeUndefined();
    },
  );

  it('refuses a link renaming an existing user to a name with a line break; the name stays', async () => {
    const claims = await existingCandidate('bad-rename');
    expectRefused(await visit(ssoUrl(await mint({ ...claims, name: 'Renamed\r\nAdmin' }))));
    expect(await userRow(claims.sub)).toMatchObject({ name: claims.name });
  });

  it('stores a link’s e-mail in lower case, and refuses a link whose e-mail another user holds in another case', async () => {
    const first = newCandidate('mail-case');
    expect(
      (await visit(ssoUrl(await mint({ ...first, email: 'Mail.Case@Example.com' })))).statusCode,
    ).toBe(303);
    expect(await userRow(first.sub)).toMatchObject({ email: 'mail.case@example.com' });
    const twin = newCandidate('mail-case-twin');
    expectRefused(await visit(ssoUrl(await mint({ ...twin, email: 'MAIL.CASE@example.com' }))));
    expect(await userRow(twin.sub)).toBeUndefined();
  });

  it('refuses a link signed with another secret', async () => {
    const token = await mint(newCandidate('bad-signature'), {
      secret: 'another-secret-0123456789abcdef-0123456789',
    });
    expectRefused(await visit(ssoUrl(token)));
  });

  it('refuses a link whose signature was tampered with', async () => {
    const token = await mint(newCandidate('tampered'));
    const [header, , signature] = token.split('.');
    const forged = `${header}.${b64({ ...newCandidate('tampered'), role: 'owner', iat: nowSeconds(), exp: nowSeconds() + 60, jti: 'x' })}.${signature}`;
    expectRefused(await visit(ssoUrl(forged)));
  });

  it.each(['HS384', 'HS512'])(
    'refuses a link signed with another algorithm (%s) with the same secret',
    async (alg) => {
      const token = await mint(newCandidate(`alg-${alg}`), { alg });
      expectRefused(await visit(ssoUrl(token)));
    },
  );

  it('refuses an unsigned link (alg: none)', async () => {
    const iat = nowSeconds();
    const claims = { ...newCandidate('none'), iat, exp: iat + 300, jti: randomToken(12) };
    for (const token of [
      `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`,
      `${b64({ alg: 'none' })}.${b64(claims)}`,
    ]) {
      expectRefused(await visit(ssoUrl(token)));
    }
    expect(await userRow(claims.sub)).toBeUndefined();
  });

  it('refuses an expired link (past the 60 s of allowed clock skew)', async () => {
    const iat = nowSeconds() - 400;
    const token = await mint({ ...newCandidate('expired'), iat, exp: iat + 300 });
    expectRefused(await visit(ssoUrl(token)));
  });

  it('accepts a link that expired within the allowed clock skew', async () => {
    const iat = nowSeconds() - 320;
    const token = await mint({ ...newCandidate('skew'), iat, exp: iat + 300 });
    expect((await visit(ssoUrl(token))).statusCode).toBe(303);
  });

  it('refuses a link that lives longer than 10 minutes (exp − iat > 600)', async () => {
    const iat = nowSeconds();
    const token = await mint({ ...newCandidate('too-long'), iat, exp: iat + 601 });
    expectRefused(await visit(ssoUrl(token)));
    const ok = await mint({ ...newCandidate('ten-minutes'), iat, exp: iat + 600 });
    expect((await visit(ssoUrl(ok))).statusCode).toBe(303);
  });

  it('refuses a link issued in the future (beyond the clock skew)', async () => {
    const iat = nowSeconds() + 300;
    const token = await mint({ ...newCandidate('future'), iat, exp: iat + 300 });
    expectRefused(await visit(ssoUrl(token)));
  });

  it('refuses a replayed link (each jti works once)', async () => {
    const token = await mint(newCandidate('replay'));
    expect((await visit(ssoUrl(token))).statusCode).toBe(303);
    expectRefused(await visit(ssoUrl(token)));
  });

  it('refuses another link that reuses a spent jti', async () => {
    const claims = await existingCandidate('jti-reuse');
    const jti = randomToken(12);
    expect((await visit(ssoUrl(await mint({ sub: claims.sub, jti })))).statusCode).toBe(303);
    expectRefused(await visit(ssoUrl(await mint({ sub: claims.sub, jti, name: 'Other' }))));
  });

  it('refuses an unknown user when the link has no role and name', async () => {
    const sub = externalId('unknown');
    expectRefused(await visit(ssoUrl(await mint({ sub }))));
    expectRefused(await visit(ssoUrl(await mint({ sub, name: 'Only A Name' }))));
    expectRefused(await visit(ssoUrl(await mint({ sub, role: 'candidate' }))));
    expect(await userRow(sub)).toBeUndefined();
  });

  it('refuses an erased user, even with a full profile', async () => {
    const claims = await existingCandidate('erased');
    const erase = await ctx.app.inject({
      method: 'DELETE',
      url: integrationPaths.user(claims.sub),
      headers: { authorization: `Bearer ${INTEGRATION_KEY}` },
    });
    expect(erase.statusCode).toBe(204);
    expectRefused(await visit(ssoUrl(await mint({ sub: claims.sub }))));
    expectRefused(await visit(ssoUrl(await mint(claims))));
    expect(await userRow(claims.sub)).toMatchObject({ name: DELETED_USER_NAME });
  });

  it.each(['sub', 'exp', 'jti', 'iat'])('refuses a link without the %s claim', async (claim) => {
    const token = await mint(newCandidate(`missing-${claim}`), { omit: [claim] });
    expectRefused(await visit(ssoUrl(token)));
  });

  it('refuses a link whose sub is not an external id', async () => {
    const token = await mint({ ...newCandidate('bad-sub'), sub: 'has spaces/and slashes' });
    expectRefused(await visit(ssoUrl(token)));
  });

  it('refuses a link whose profile claims are malformed', async () => {
    const claims = newCandidate('bad-profile');
    expectRefused(await visit(ssoUrl(await mint({ ...claims, role: 'admin' }))));
    expectRefused(await visit(ssoUrl(await mint({ ...claims, email: 'not-an-email' }))));
    expect(await userRow(claims.sub)).toBeUndefined();
  });

  it('refuses a link whose profile cannot be applied (an e-mail of another user)', async () => {
    const claims = newCandidate('email-taken');
    expectRefused(await visit(ssoUrl(await mint({ ...claims, email: SARA.email }))));
    expect(await userRow(claims.sub)).toBeUndefined();
  });

  it.each([
    ['no token at all', paths.sso],
    ['an empty token', `${paths.sso}?token=`],
    ['a word', `${paths.sso}?token=hello`],
    ['three garbage parts', `${paths.sso}?token=a.b.c`],
    ['an array of tokens', `${paths.sso}?token=a.b.c&token=d.e.f`],
    ['a huge token', `${paths.sso}?token=${'a'.repeat(9000)}`],
  ])('refuses a malformed link: %s', async (_label, url) => {
    expectRefused(await visit(url));
  });

  it('says so in Arabic when the link asks for Arabic, or else the browser does', async () => {
    const iat = nowSeconds() - 1000;
    const expired = await mint({ ...newCandidate('ar-claim'), iat, exp: iat + 60, locale: 'ar' });
    const byClaim = await visit(ssoUrl(expired), { lang: 'en-US,en;q=0.9' });
    expectRefused(byClaim, INVALID_TEXT_AR);
    expect(byClaim.body).toContain('<html lang="ar" dir="rtl">');

    const byBrowser = await visit(`${paths.sso}?token=garbage`, {
      lang: 'ar-EG,ar;q=0.9,en;q=0.5',
    });
    expectRefused(byBrowser, INVALID_TEXT_AR);
    const english = await visit(`${paths.sso}?token=garbage`, { lang: 'fr-FR,en;q=0.8,ar;q=0.3' });
    expectRefused(english, INVALID_TEXT);
    expect(english.body).toContain('<html lang="en" dir="ltr">');
  });

  it('does not sign out the browser’s current session when a link is refused', async () => {
    const sara = await signIn(ctx.app, SARA.email);
    expectRefused(await visit(`${paths.sso}?token=garbage`, { cookies: sara.cookies }));
    expect((await initialData(sara.cookies)).statusCode).toBe(200);
  });

  it('keeps a used jti until its link can no longer be accepted, and forgets long-expired ones', async () => {
    const db = ctx.database.db.kysely;
    const old = `old-${randomToken(6)}`;
    await db
      .insertInto('sso_used_tokens')
      .values({ jti: old, expires_at: new Date(Date.now() - 2 * 3600_000).toISOString() })
      .execute();
    const jti = randomToken(12);
    const iat = nowSeconds();
    const token = await mint({ ...newCandidate('purge'), jti, iat, exp: iat + 120 });
    expect((await visit(ssoUrl(token))).statusCode).toBe(303);
    const rows = await db.selectFrom('sso_used_tokens').selectAll().execute();
    expect(rows.find((row) => row.jti === old)).toBeUndefined();
    expect(rows.find((row) => row.jti === jti)?.expires_at).toBe(
      new Date((iat + 120 + 60) * 1000).toISOString(),
    );
  });

  it('refuses a replay on another instance sharing the database, and of two racing uses exactly one wins', async () => {
    const otherDb = openDatabase(
      ctx.database.url,
      ctx.database.searchPath ? { searchPath: ctx.database.searchPath } : {},
    );
    const other = await buildApp({ config: ctx.config, db: otherDb });
    try {
      await other.app.ready();
      const token = await mint(newCandidate('two-instances'));
      expect((await visit(ssoUrl(token))).statusCode).toBe(303);
      expectRefused(await other.app.inject({ method: 'GET', url: ssoUrl(token) }));

      const raced = await mint(newCandidate('race'));
      const answers = await Promise.all([
        visit(ssoUrl(raced)),
        other.app.inject({ method: 'GET', url: ssoUrl(raced) }),
      ]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([303, 401]);
    } finally {
      await other.app.close();
      await otherDb.destroy();
    }
  });

  it('refuses a replay after a restart', async () => {
    const token = await mint(newCandidate('restart'));
    expect((await visit(ssoUrl(token))).statusCode).toBe(303);
    const restarted = await buildApp({ config: ctx.config, db: ctx.database.db });
    try {
      await restarted.app.ready();
      expectRefused(await restarted.app.inject({ method: 'GET', url: ssoUrl(token) }));
    } finally {
      await restarted.app.close();
    }
  });
});

describe(`/sso without SSO_SECRET (${dialect})`, () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp(dialect, { SSO_SECRET: '' });
  });
  afterAll(async () => ctx.close());

  it('answers 404, even to a link signed with what would be the secret', async () => {
    const token = await mint(newCandidate('off'));
    const response = await ctx.app.inject({ method: 'GET', url: ssoUrl(token) });
    expect(response.statusCode).toBe(404);
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(ctx.config.ssoSecret).toBeUndefined();
  });
});
