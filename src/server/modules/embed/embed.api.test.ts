import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { paths } from '../../../shared/paths.js';
import {
  embedConversationResponseSchema,
  openEmbedConversationResponseSchema,
} from '../../../shared/embed-conversations.js';
import { integrationPaths, userUnreadResponseSchema } from '../../../shared/integration.js';
import { SESSION_COOKIE, XSRF_COOKIE } from '../../plugins/auth.js';
import { fresh, hostOf } from '../../../../test-support/host-api.js';
import { signedLinkToken, signInByLink } from '../../../../test-support/sign-in-link.js';
import {
  createTestApp,
  type Session,
  type TestContext,
} from '../../../../test-support/test-app.js';

// Issue 40, embedding the messenger in the host's pages (ADR 022): who may frame `/messages…`,
// partitioned cookies in a frame, the embedded page's calls, the host's unread total, `/embed.js`.

const dialect = inject('database');

const KEY = 'embed-test-integration-key-0123456789abcdef-01';
const SSO_SECRET = 'embed-test-sso-secret-0123456789abcdef-0123456';
const HOST = 'https://jobs.example';
const OTHER_HOST = 'http://localhost:5173';
const EMBED_ORIGINS = `${HOST},${OTHER_HOST}`;
const SCRIPT = 'window.JobMessenger={mount(){}};\n';
const TYPES = 'export declare function mount(element: HTMLElement): void;\n';

/** A client folder of its own: a page (with the CSRF placeholder) and, if told, the embed files. */
const webRootWith = (embedFiles: boolean): string => {
  const root = mkdtempSync(join(tmpdir(), 'embed-web-'));
  writeFileSync(
    join(root, 'index.html'),
    '<!doctype html><html><head><meta name="csrf-token" content="__CSRF_TOKEN__"></head></html>',
  );
  writeFileSync(join(root, 'login.html'), '<!doctype html><html><head></head></html>');
  if (embedFiles) {
    writeFileSync(join(root, 'embed.js'), SCRIPT);
    writeFileSync(join(root, 'embed.d.ts'), TYPES);
  }
  return root;
};

const signJwt = (claims: Record<string, unknown>, secret = SSO_SECRET) =>
  signedLinkToken(claims, secret);

const cookieNamed = (response: LightMyRequestResponse, name: string) =>
  response.cookies.find((cookie) => cookie.name === name);

const setCookieHeaders = (response: LightMyRequestResponse): string[] => {
  const header = response.headers['set-cookie'];
  return header === undefined ? [] : Array.isArray(header) ? header : [header];
};

const framed = { 'sec-fetch-dest': 'iframe', 'sec-fetch-site': 'cross-site' };

describe(`embedding the messenger (${dialect})`, { timeout: 60_000 }, () => {
  let ctx: TestContext;
  let webRoot: string;

  const { call: host, parties } = hostOf(() => ctx, KEY);
  /** The embedded page opening a conversation by host ids, as `viewer`. */
  const openIn = (
    viewer: Session,
    body: Record<string, unknown>,
    headers?: Record<string, string>,
  ) => viewer.call('POST', paths.embedConversations, body, headers);
  const signInAs = (sub: string, role: string) =>
    signInByLink(ctx, SSO_SECRET, { sub, role, name: sub });

  beforeAll(async () => {
    webRoot = webRootWith(true);
    ctx = await createTestApp(
      dialect,
      { INTEGRATION_KEYS: KEY, SSO_SECRET, EMBED_ORIGINS },
      { webRoot },
    );
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(webRoot, { recursive: true, force: true });
  });

  describe('who may frame /messages', () => {
    it('lets this origin and every EMBED_ORIGINS origin frame the page, without X-Frame-Options', async () => {
      const viewer = await signInAs(fresh('cand'), 'candidate');
      const response = await ctx.app.inject({
        method: 'GET',
        url: `${paths.messages}?tab=1`,
        cookies: viewer.cookies,
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-security-policy']).toContain(
        `frame-ancestors 'self' ${HOST} ${OTHER_HOST}`,
      );
      expect(response.headers['x-frame-options']).toBeUndefined();
    });

    it('lets only the host origin frame an embedded page, and serves it without a session', async () => {
      const response = await ctx.app.inject({
        method: 'GET',
        url: `${paths.messages}?embed=inbox&host_origin=${encodeURIComponent(HOST)}`,
        headers: framed,
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['content-security-policy']).toMatch(
        new RegExp(`frame-ancestors ${HOST}(;|$)`),
      );
      expect(response.headers['x-frame-options']).toBeUndefined();
      // not sent to sign in: the page reports `signin-required` to its host itself
      expect(response.headers.location).toBeUndefined();
      // the page's XSRF cookie, partitioned for the frame
      expect(cookieNamed(response, XSRF_COOKIE)).toMatchObject({
        sameSite: 'None',
        secure: true,
        partitioned: true,
      });
    });

    it('sends a visitor without a session to sign in from the page that is not embedded', async () => {
      const response = await ctx.app.inject({ method: 'GET', url: paths.messages });
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toMatch(/^\/login\?next=/);
    });

    it.each([
      ['another origin', 'https://evil.example'],
      ['an origin with a path', `${HOST}/`],
      ['no host origin', undefined],
    ])('refuses an embedded page for %s: 400, framed by nobody', async (_what, origin) => {
      const query = origin === undefined ? '' : `&host_origin=${encodeURIComponent(origin)}`;
      const response = await ctx.app.inject({
        method: 'GET',
        url: `${paths.messages}?embed=conversation${query}`,
        headers: framed,
      });
      expect(response.statusCode).toBe(400);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain('This page cannot be embedded here.');
      expect(response.headers['content-security-policy']).toMatch(/frame-ancestors 'none'(;|$)/);
      expect(response.headers['x-frame-options']).toBe('DENY');
    });

    it('refuses an embedded page in a mode the page does not know', async () => {
      const response = await ctx.app.inject({
        method: 'GET',
        url: `${paths.messages}?embed=popup&host_origin=${encodeURIComponent(HOST)}`,
        headers: framed,
      });
      expect(response.statusCode).toBe(400);
      expect(response.headers['content-security-policy']).toMatch(/frame-ancestors 'none'(;|$)/);
    });

    it('keeps every other path unframeable by other origins', async () => {
      const response = await ctx.app.inject({ method: 'GET', url: paths.healthz });
      expect(response.headers['content-security-policy']).toMatch(/frame-ancestors 'self'(;|$)/);
      expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    });
  });

  describe('cookies in a frame', () => {
    it('sets the session and XSRF cookies SameSite=None; Secure; Partitioned from /sso in a frame', async () => {
      const token = await signJwt({ sub: fresh('cand'), role: 'candidate', name: 'Karim' });
      const response = await ctx.app.inject({
        method: 'GET',
        url: `${paths.sso}?token=${encodeURIComponent(token)}`,
        headers: framed,
      });
      expect(response.statusCode).toBe(303);
      for (const name of [SESSION_COOKIE, XSRF_COOKIE]) {
        const header = setCookieHeaders(response).find((value) => value.startsWith(`${name}=`));
        expect(header, name).toMatch(/; SameSite=None/);
        expect(header, name).toMatch(/; Secure/);
        expect(header, name).toMatch(/; Partitioned/);
      }
      expect(cookieNamed(response, SESSION_COOKIE)?.httpOnly).toBe(true);
    });

    it('keeps them Lax in a frame of the same site (first-party cookies there)', async () => {
      const token = await signJwt({ sub: fresh('cand'), role: 'candidate', name: 'Karim' });
      const response = await ctx.app.inject({
        method: 'GET',
        url: `${paths.sso}?token=${encodeURIComponent(token)}`,
        headers: { 'sec-fetch-dest': 'iframe', 'sec-fetch-site': 'same-site' },
      });
      const header = setCookieHeaders(response).find((value) =>
        value.startsWith(`${SESSION_COOKIE}=`),
      );
      expect(header).toMatch(/; SameSite=Lax/);
      expect(header).not.toMatch(/Partitioned/);
    });

    it('ends the frame’s partitioned session cookie too when signing out', async () => {
      const viewer = await signInAs(fresh('cand'), 'candidate');
      const response = await viewer.call('POST', paths.logout);
      expect(response.statusCode).toBe(204);
      const cleared = setCookieHeaders(response).filter((value) =>
        value.startsWith(`${SESSION_COOKIE}=;`),
      );
      expect(cleared.some((value) => /; SameSite=Lax/.test(value))).toBe(true);
      expect(cleared.some((value) => /; Partitioned/.test(value))).toBe(true);
    });

    it('keeps them Lax and unpartitioned at top level', async () => {
      const token = await signJwt({ sub: fresh('cand'), role: 'candidate', name: 'Karim' });
      const response = await ctx.app.inject({
        method: 'GET',
        url: `${paths.sso}?token=${encodeURIComponent(token)}`,
        headers: { 'sec-fetch-dest': 'document' },
      });
      expect(response.statusCode).toBe(303);
      for (const name of [SESSION_COOKIE, XSRF_COOKIE]) {
        const header = setCookieHeaders(response).find((value) => value.startsWith(`${name}=`));
        expect(header, name).toMatch(/; SameSite=Lax/);
        expect(header, name).not.toMatch(/Partitioned/);
      }
    });

    it('sends a refused link in a frame to its embedded `next`, without a session', async () => {
      const next = `${paths.messages}?embed=badge&host_origin=${encodeURIComponent(HOST)}`;
      const expired = await signJwt({
        sub: fresh('cand'),
        role: 'candidate',
        name: 'Karim',
        iat: 1,
        exp: 2,
      });
      const asked = (token: string, query: string, headers: Record<string, string>) =>
        ctx.app.inject({
          method: 'GET',
          url: `${paths.sso}?token=${encodeURIComponent(token)}${query}`,
          headers,
        });
      const byParameter = await asked(expired, `&next=${encodeURIComponent(next)}`, framed);
      expect(byParameter.statusCode).toBe(303);
      expect(byParameter.headers.location).toBe(next);
      // whoever was signed in in this frame before is signed out of it: their inbox is not this user's
      const cleared = setCookieHeaders(byParameter).find((value) =>
        value.startsWith(`${SESSION_COOKIE}=;`),
      );
      expect(cleared).toMatch(/; Partitioned/);
      expect(cleared).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/);
      // the claim wins over the parameter, as for a link that is accepted
      const claimed = await signJwt(
        { sub: fresh('cand'), role: 'candidate', name: 'Karim', next },
        'not-the-secret-0123456789abcdef-0123456789abcdef',
      );
      const byClaim = await asked(claimed, `&next=${encodeURIComponent('/messages')}`, framed);
      expect(byClaim.statusCode).toBe(303);
      expect(byClaim.headers.location).toBe(next);
      // a `next` that is not an embedded page, or a top-level visit: the refusal page
      const notEmbedded = await asked(expired, `&next=${encodeURIComponent('/messages')}`, framed);
      expect(notEmbedded.statusCode).toBe(401);
      const topLevel = await asked(expired, `&next=${encodeURIComponent(next)}`, {});
      expect(topLevel.statusCode).toBe(401);
    });
  });

  describe('the embedded page’s conversations by host ids', () => {
    it('opens or creates the viewer’s conversation, the same one twice', async () => {
      const ids = await parties();
      const company = await signInAs(ids.company, 'company');
      const first = await openIn(company, {
        company: ids.company,
        candidate: ids.candidate,
        job: ids.job,
      });
      expect(first.statusCode, first.body).toBe(200);
      const opened = openEmbedConversationResponseSchema.parse(first.json());
      expect(opened.conversation).toEqual({
        id: opened.messengerUser.id,
        company_external_id: ids.company,
        candidate_external_id: ids.candidate,
        job_external_id: ids.job,
      });
      expect(opened.messengerUser.company_id).toBe(company.user.id);
      const candidate = await signInAs(ids.candidate, 'candidate');
      const again = await openIn(candidate, {
        company: ids.company,
        candidate: ids.candidate,
        job: ids.job,
      });
      expect(again.statusCode, again.body).toBe(200);
      expect(openEmbedConversationResponseSchema.parse(again.json()).conversation.id).toBe(
        opened.conversation.id,
      );
      // about no job: another conversation of the same pair
      const noJob = await openIn(candidate, {
        company: ids.company,
        candidate: ids.candidate,
      });
      const other = openEmbedConversationResponseSchema.parse(noJob.json()).conversation;
      expect(other.job_external_id).toBeNull();
      expect(other.id).not.toBe(opened.conversation.id);
    });

    it('refuses a stranger (403) and names an unknown party or job (422)', async () => {
      const ids = await parties();
      const stranger = await signInAs(fresh('cand'), 'candidate');
      const refused = await openIn(stranger, {
        company: ids.company,
        candidate: ids.candidate,
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ message: 'You can open only your own conversations.' });
      const company = await signInAs(ids.company, 'company');
      const unknownCandidate = await openIn(company, {
        company: ids.company,
        candidate: fresh('nobody'),
      });
      expect(unknownCandidate.statusCode).toBe(422);
      expect(unknownCandidate.json().errors).toEqual({
        candidate: ['The candidate is not a known user.'],
      });
      const unknownJob = await openIn(company, {
        company: ids.company,
        candidate: ids.candidate,
        job: fresh('job'),
      });
      expect(unknownJob.statusCode).toBe(422);
      expect(unknownJob.json().errors).toEqual({ job: ['The job is not a known job.'] });
    });

    it('needs the CSRF header with the session', async () => {
      const ids = await parties();
      const company = await signInAs(ids.company, 'company');
      const response = await company.call(
        'POST',
        paths.embedConversations,
        { company: ids.company, candidate: ids.candidate },
        { 'x-xsrf-token': 'wrong' },
      );
      expect(response.statusCode).toBe(419);
    });

    it('gives the host ids of the viewer’s conversation, and 404 for any other', async () => {
      const ids = await parties();
      const company = await signInAs(ids.company, 'company');
      const opened = openEmbedConversationResponseSchema.parse(
        (
          await openIn(company, {
            company: ids.company,
            candidate: ids.candidate,
            job: ids.job,
          })
        ).json(),
      ).conversation;
      const read = await company.call('GET', paths.embedConversation(opened.id));
      expect(read.statusCode, read.body).toBe(200);
      expect(embedConversationResponseSchema.parse(read.json()).conversation).toEqual(opened);
      const stranger = await signInAs(fresh('cand'), 'candidate');
      expect((await stranger.call('GET', paths.embedConversation(opened.id))).statusCode).toBe(404);
      expect((await company.call('GET', paths.embedConversation(99_999_999))).statusCode).toBe(404);
    });
  });

  describe('GET /api/v1/users/{externalId}/unread', () => {
    it('counts the user’s unread messages: 0, then each one received', async () => {
      const ids = await parties();
      const unread = async (externalId: string) => {
        const response = await host('GET', integrationPaths.userUnread(externalId));
        expect(response.statusCode, response.body).toBe(200);
        return userUnreadResponseSchema.parse(response.json()).unread_total;
      };
      expect(await unread(ids.candidate)).toBe(0);
      for (const [index, job] of [ids.job, null, ids.job].entries()) {
        const sent = await host('POST', integrationPaths.conversations, {
          company: ids.company,
          candidate: ids.candidate,
          job,
          message: { from: 'company', text: `Hello ${index}`, client_id: randomUUID() },
        });
        expect(sent.statusCode, sent.body).toBeLessThan(300);
      }
      expect(await unread(ids.candidate)).toBe(3);
      expect(await unread(ids.company)).toBe(0);
    });

    it('is 404 for an unknown or erased user and 401 without the key', async () => {
      const ids = await parties();
      expect((await host('GET', integrationPaths.userUnread(fresh('nobody')))).statusCode).toBe(
        404,
      );
      expect((await host('DELETE', integrationPaths.user(ids.candidate))).statusCode).toBe(204);
      expect((await host('GET', integrationPaths.userUnread(ids.candidate))).statusCode).toBe(404);
      const keyless = await ctx.app.inject({
        method: 'GET',
        url: integrationPaths.userUnread(ids.company),
      });
      expect(keyless.statusCode).toBe(401);
      const wrongKey = await host(
        'GET',
        integrationPaths.userUnread(ids.company),
        undefined,
        'not-the-key-0123456789abcdef-0123456789abcdef',
      );
      expect(wrongKey.statusCode).toBe(401);
    });
  });

  describe('/embed.js and /embed.d.ts', () => {
    it('serves the built script to any origin, cacheable, with an ETag', async () => {
      const response = await ctx.app.inject({ method: 'GET', url: paths.embedScript });
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(SCRIPT);
      expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(response.headers['cache-control']).toBe('public, max-age=300');
      expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
      const etag = response.headers.etag;
      expect(etag).toMatch(/^"[0-9a-f]+"$/);
      const unchanged = await ctx.app.inject({
        method: 'GET',
        url: paths.embedScript,
        headers: { 'if-none-match': String(etag) },
      });
      expect(unchanged.statusCode).toBe(304);
      expect(unchanged.body).toBe('');
    });

    it('serves the types', async () => {
      const response = await ctx.app.inject({ method: 'GET', url: paths.embedTypes });
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(TYPES);
      expect(response.headers['content-type']).toBe('application/typescript; charset=utf-8');
      expect(response.headers['cache-control']).toBe('public, max-age=300');
      expect(response.headers.etag).toBeTruthy();
    });
  });
});

describe(`without EMBED_ORIGINS (${dialect})`, { timeout: 60_000 }, () => {
  let ctx: TestContext;
  let webRoot: string;

  beforeAll(async () => {
    webRoot = webRootWith(false);
    ctx = await createTestApp(dialect, { EMBED_ORIGINS: undefined }, { webRoot });
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(webRoot, { recursive: true, force: true });
  });

  it('lets only this origin frame /messages, and refuses every embedded page', async () => {
    const page = await ctx.app.inject({ method: 'GET', url: paths.messages });
    expect(page.headers['content-security-policy']).toMatch(/frame-ancestors 'self'(;|$)/);
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
    const embedded = await ctx.app.inject({
      method: 'GET',
      url: `${paths.messages}?embed=inbox&host_origin=${encodeURIComponent(HOST)}`,
      headers: framed,
    });
    expect(embedded.statusCode).toBe(400);
    expect(embedded.headers['content-security-policy']).toMatch(/frame-ancestors 'none'(;|$)/);
  });

  it('keeps cookies Lax in a frame (no embedding, no partitioned cookie)', async () => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/login',
      headers: framed,
    });
    const xsrf = setCookieHeaders(response).find((value) => value.startsWith(`${XSRF_COOKIE}=`));
    expect(xsrf).toMatch(/; SameSite=Lax/);
    expect(xsrf).not.toMatch(/Partitioned/);
  });

  it('answers 404 with a clear message while the script is not built', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: paths.embedScript });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      message: 'embed.js is not built yet: run `npm run build`.',
    });
    expect((await ctx.app.inject({ method: 'GET', url: paths.embedTypes })).statusCode).toBe(404);
  });
});
