import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { integrationPaths } from '../../../shared/integration.js';
import { paths } from '../../../shared/paths.js';
import { SARA } from '../../../../test-support/accounts.js';
import { TestMailServer } from '../../../../test-support/mail-server.js';
import { createTestApp, signIn, type TestContext } from '../../../../test-support/test-app.js';

const dialect = inject('database');

const KEY = 'integration-key-for-brand-tests-0123456789abcdef';
const SSO_SECRET = 'sso-secret-for-brand-tests-0123456789abcdefghij';
const PUBLIC_URL = 'https://messages.jobs.example';
/** Markup in the name: every page must escape it. */
const SITE_NAME = 'Nile <Jobs> & "Co" $&';
const SITE_NAME_HTML = 'Nile &lt;Jobs&gt; &amp; &quot;Co&quot; $&amp;';
const LOGO = 'https://cdn.brand.example/logo.svg';
/** A light accent: text on it must be black (white contrasts 1.5:1 only). */
const COLOR = '#facc15';
/** The built sign-in page's stylesheet, which the server's own pages take over. */
const LOGIN_STYLESHEET = '/assets/login-test.css';

/** A built client made of the real page templates (their placeholders), plus a stylesheet link. */
const makeWebRoot = (): string => {
  const webRoot = mkdtempSync(join(tmpdir(), 'brand-web-'));
  copyFileSync('src/web/index.html', join(webRoot, 'index.html'));
  const login = readFileSync('src/web/login.html', 'utf8').replace(
    '</head>',
    `<link rel="stylesheet" href="${LOGIN_STYLESHEET}">\n</head>`,
  );
  writeFileSync(join(webRoot, 'login.html'), login);
  return webRoot;
};

const titleOf = (html: string): string | undefined => /<title>([^<]*)<\/title>/.exec(html)?.[1];

/** The brand every server page shows: the colours' style sheet, the logo named by the site. */
const expectBrandedPage = (html: string) => {
  expect(html).toContain(`<link rel="stylesheet" href="${paths.brandStylesheet}"`);
  expect(html).toContain(`<img class="topbar__logo-image" src="${LOGO}" alt="${SITE_NAME_HTML}">`);
  expect(html).toContain(`<span class="login-card__product">${SITE_NAME_HTML}</span>`);
  expect(html).toContain(`<link rel="stylesheet" href="${LOGIN_STYLESHEET}">`);
  expect(html).not.toContain('Job board');
  expect(html).not.toContain('<Jobs>');
};

describe(`the site's brand on every page the server renders, and in e-mails (${dialect})`, () => {
  let ctx: TestContext;
  let mail: TestMailServer;
  let webRoot: string;

  beforeAll(async () => {
    mail = await TestMailServer.start();
    webRoot = makeWebRoot();
    ctx = await createTestApp(
      dialect,
      {
        PUBLIC_URL,
        SITE_NAME,
        BRAND_LOGO_URL: LOGO,
        BRAND_COLOR: COLOR.toUpperCase(),
        IMAGE_ORIGINS: 'https://photos.jobs.example',
        SSO_SECRET,
        INTEGRATION_KEYS: KEY,
        SMTP_URL: mail.url,
        MAIL_FROM: 'Nile Jobs <messages@jobs.example>',
        NOTIFY_EMAIL_DELAY_SECONDS: '0',
        NOTIFY_EMAIL_MIN_INTERVAL_SECONDS: '0',
        OUTBOX_POLL_MS: '50',
      },
      { webRoot },
    );
  });
  afterAll(async () => {
    await ctx.close();
    await mail.close();
    rmSync(webRoot, { recursive: true, force: true });
  });

  it('the sign-in page and the messaging page carry SITE_NAME in their served title, the logo and the colours', async () => {
    const login = await ctx.app.inject({ method: 'GET', url: paths.login });
    expect(login.statusCode).toBe(200);
    expect(titleOf(login.body)).toBe(`Sign in · ${SITE_NAME_HTML}`);
    expect(login.body).toContain(`<meta name="site-name" content="${SITE_NAME_HTML}" />`);
    expect(login.body).toContain(`<meta name="brand-logo-url" content="${LOGO}" />`);
    expect(login.body).toContain(`<link rel="stylesheet" href="${paths.brandStylesheet}" />`);
    expect(login.body).toContain('<meta name="color-scheme" content="light dark" />');
    expect(login.body).not.toContain('__SITE_NAME__');

    const session = await signIn(ctx.app, SARA.email);
    const page = await ctx.app.inject({
      method: 'GET',
      url: paths.messages,
      cookies: session.cookies,
    });
    expect(page.statusCode).toBe(200);
    expect(titleOf(page.body)).toBe(`Messages · ${SITE_NAME_HTML}`);
    expect(page.body).toContain(`<meta name="brand-logo-url" content="${LOGO}" />`);
    expect(page.body).toContain(`<link rel="stylesheet" href="${paths.brandStylesheet}" />`);
  });

  it('the client configuration names the brand too (for clients that draw their own page)', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: paths.config });
    expect(response.json()).toMatchObject({
      site_name: SITE_NAME,
      brand_logo_url: LOGO,
      brand_color: COLOR,
    });
  });

  it('the CSP lets the logo load from its own origin, next to IMAGE_ORIGINS', async () => {
    const login = await ctx.app.inject({ method: 'GET', url: paths.login });
    const imgSrc = String(login.headers['content-security-policy'])
      .split(';')
      .map((directive) => directive.trim())
      .find((directive) => directive.startsWith('img-src '));
    expect(imgSrc?.split(' ')).toEqual(
      expect.arrayContaining([
        "'self'",
        'https://photos.jobs.example',
        'https://cdn.brand.example',
      ]),
    );
  });

  it('/brand.css sets the accent to BRAND_COLOR with black text on it, in light and dark', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: paths.brandStylesheet });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/css');
    const [light = '', dark = ''] = response.body.split('@media (prefers-color-scheme: dark)');
    for (const scheme of [light, dark]) {
      expect(scheme).toContain(`--color-primary: ${COLOR};`);
      expect(scheme).toContain('--color-on-primary: #000000;');
    }
    // the accent as text: darkened on the light surfaces, the colour itself on the dark ones
    expect(light).not.toContain(`--color-primary-strong: ${COLOR};`);
    expect(dark).toContain(`--color-primary-strong: ${COLOR};`);
  });

  it('a refused sign-in link answers a page under the brand, in the browser’s language', async () => {
    const refused = await ctx.app.inject({
      method: 'GET',
      url: `${paths.sso}?token=not-a-token`,
      headers: { 'accept-language': 'ar' },
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.body).toContain('<html lang="ar" dir="rtl">');
    expect(titleOf(refused.body)).toBe(
      `رابط تسجيل الدخول غير صالح أو منتهي الصلاحية · ${SITE_NAME_HTML}`,
    );
    expectBrandedPage(refused.body);
  });

  it('the unsubscribe page shows the brand, not "Job board"', async () => {
    const invalid = await ctx.app.inject({ method: 'GET', url: `${paths.unsubscribe}?token=1.x` });
    expect(invalid.statusCode).toBe(400);
    expect(titleOf(invalid.body)).toBe(`This link is invalid · ${SITE_NAME_HTML}`);
    expectBrandedPage(invalid.body);
  });

  it('e-mails carry SITE_NAME in the subject and footer, the logo and the colour in the HTML part', async () => {
    const call = (url: string, body: unknown) =>
      ctx.app.inject({
        method: url.includes('conversations') ? 'POST' : 'PUT',
        url,
        headers: { authorization: `Bearer ${KEY}` },
        payload: body as object,
      });
    const company = await call(integrationPaths.user('brand-co'), {
      role: 'company',
      name: 'Brand Co',
      email: 'brand-co@companies.example',
    });
    expect(company.statusCode, company.body).toBeLessThan(300);
    const candidate = await call(integrationPaths.user('brand-candidate'), {
      role: 'candidate',
      name: 'Hana',
      email: 'hana@people.example',
    });
    expect(candidate.statusCode, candidate.body).toBeLessThan(300);
    const sent = await call(integrationPaths.conversations, {
      company: 'brand-co',
      candidate: 'brand-candidate',
      message: { from: 'company', text: 'Are you free on Monday?' },
    });
    expect(sent.statusCode, sent.body).toBeLessThan(300);

    const [email] = await mail.waitFor(1, 'hana@people.example');
    if (!email) throw new Error('no e-mail');
    const { parsed } = email;
    expect(parsed.subject).toBe(`${SITE_NAME}: New message from Brand Co`);
    const html = typeof parsed.html === 'string' ? parsed.html : '';
    expect(html).toContain(`<img src="${LOGO}" alt="${SITE_NAME_HTML}"`);
    // the header and the button: the colour with black text (computed: it contrasts more)
    expect(html).toContain(`background:${COLOR};color:#000000`);
    expect(html).toContain(`Sent by ${SITE_NAME_HTML}.`);
    expect(html).not.toContain('<Jobs>');
    expect(parsed.text ?? '').toContain(`Sent by ${SITE_NAME}.`);
  });
});
