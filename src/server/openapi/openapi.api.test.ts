import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { integrationPaths } from '../../shared/integration.js';
import {
  checkExchange,
  findOperation,
  isStaticFileRoute,
  type RecordedExchange,
} from '../../../test-support/openapi-contract.js';
import { createTestApp, type TestContext } from '../../../test-support/test-app.js';
import { createOpenApiDocument, openApiPathOf, type OpenApiDocument } from './openapi-document.js';
import { apiReferencePaths } from './api-reference.js';
import { operations } from './operations.js';

const dialect = inject('database');

/** A built client in miniature: one file in each folder the static routes serve. */
const STATIC_FILES = [
  'index.html',
  'login.html',
  'favicon.svg',
  'assets/app-0123abcd.js',
  'assets/styles-0123abcd.css',
  'lang/en.json',
  'sounds/notification.wav',
];

interface RegisteredRoute {
  method: string;
  url: string;
  staticFile: boolean;
  /** A HEAD route Fastify added by itself for a GET route (registered as `method: 'HEAD'`). */
  implicitHead: boolean;
}

/** Every value of `key` anywhere in `value`. */
const collect = (value: unknown, key: string, found: unknown[] = []): unknown[] => {
  if (Array.isArray(value)) for (const item of value) collect(item, key, found);
  else if (value && typeof value === 'object')
    for (const [name, item] of Object.entries(value)) {
      if (name === key) found.push(item);
      collect(item, key, found);
    }
  return found;
};

const resolvePointer = (document: unknown, ref: string): unknown =>
  ref
    .slice(2)
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>(
      (node, segment) =>
        node && typeof node === 'object' ? (node as Record<string, unknown>)[segment] : undefined,
      document,
    );

describe(`OpenAPI document (${dialect})`, () => {
  let ctx: TestContext;
  let webRoot: string;
  const registered: RegisteredRoute[] = [];
  let document: OpenApiDocument;

  beforeAll(async () => {
    webRoot = mkdtempSync(join(tmpdir(), 'openapi-web-'));
    for (const file of STATIC_FILES) {
      mkdirSync(dirname(join(webRoot, file)), { recursive: true });
      writeFileSync(join(webRoot, file), file.endsWith('.html') ? '<!doctype html>' : 'x');
    }
    const onRoute = (route: RouteOptions) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods)
        registered.push({
          method,
          url: route.url,
          staticFile: isStaticFileRoute(route),
          implicitHead: route.method === 'HEAD',
        });
    };
    ctx = await createTestApp(
      dialect,
      {
        INTEGRATION_KEYS: 'openapi-test-key-0123456789abcdef0123456789',
        // every optional part on, so that every route is registered
        SSO_SECRET: 'openapi-test-sso-secret-0123456789abcdef0123',
      },
      { webRoot, onRoute },
    );
    document = createOpenApiDocument({ publicUrl: ctx.config.publicUrl });
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(webRoot, { recursive: true, force: true });
  });

  /**
   * Registered routes without the HEAD routes Fastify adds by itself for each GET (the static
   * files' HEAD routes are registered on purpose, as `['HEAD', 'GET']`, and documented).
   */
  const routes = () =>
    registered.filter(
      (route) =>
        !route.implicitHead ||
        !registered.some((other) => other.method === 'GET' && other.url === route.url),
    );

  describe('the document', () => {
    it('is OpenAPI 3.1.0 with its info, servers, tags and unique operation ids', () => {
      expect(document.openapi).toBe('3.1.0');
      expect(document.info.title).toBeTruthy();
      expect(document.info.version).toBeTruthy();
      expect(document.servers).toEqual([{ url: ctx.config.publicUrl.href.replace(/\/$/, '') }]);
      const ids = Object.values(document.paths).flatMap((item) =>
        Object.values(item).map((operation) => operation.operationId),
      );
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBe(operations.length);
    });

    it('resolves every $ref', () => {
      const refs = collect(document, '$ref');
      expect(refs.length).toBeGreaterThan(20);
      for (const ref of refs) {
        expect(typeof ref === 'string' && ref.startsWith('#/'), String(ref)).toBe(true);
        expect(resolvePointer(document, ref as string), String(ref)).toBeTruthy();
      }
    });

    it('declares every path parameter (required) and no other', () => {
      for (const [path, item] of Object.entries(document.paths)) {
        const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]).sort();
        for (const [method, operation] of Object.entries(item)) {
          const declared = (operation.parameters ?? []).filter((p) => p.in === 'path');
          expect(
            declared.map((p) => p.name).sort(),
            `${method.toUpperCase()} ${path} path parameters`,
          ).toEqual(inPath);
          for (const parameter of declared) expect(parameter.required).toBe(true);
          const all = (operation.parameters ?? []).map((p) => `${p.in}:${p.name}`);
          expect(new Set(all).size, `${method} ${path} duplicate parameters`).toBe(all.length);
        }
      }
    });

    it('names only declared security schemes and tags, and documents answers for each operation', () => {
      const schemes = new Set(Object.keys(document.components.securitySchemes));
      const tagNames = new Set(document.tags.map((tag) => tag.name));
      for (const [path, item] of Object.entries(document.paths))
        for (const [method, operation] of Object.entries(item)) {
          const where = `${method.toUpperCase()} ${path}`;
          for (const requirement of operation.security)
            for (const name of Object.keys(requirement))
              expect(schemes.has(name), `${where}: ${name}`).toBe(true);
          for (const tag of operation.tags)
            expect(tagNames.has(tag), `${where}: ${tag}`).toBe(true);
          const statuses = Object.keys(operation.responses);
          expect(statuses.length, where).toBeGreaterThan(0);
          for (const status of statuses) expect(status, where).toMatch(/^[1-5]\d\d$/);
          expect(
            statuses.some((status) => status.startsWith('2') || status.startsWith('3')),
            `${where} has a success answer`,
          ).toBe(true);
        }
    });

    it('holds valid JSON Schema 2020-12 in every component, request body and parameter', () => {
      const ajv = new Ajv2020({ strict: false });
      const schemas = [
        ...Object.entries(document.components.schemas),
        ...Object.entries(document.paths).flatMap(([path, item]) =>
          Object.entries(item).flatMap(([method, operation]) =>
            (operation.parameters ?? []).map(
              (parameter) => [`${method} ${path} ${parameter.name}`, parameter.schema] as const,
            ),
          ),
        ),
      ];
      for (const [name, schema] of schemas) {
        expect(ajv.validateSchema(schema), `${name}: ${ajv.errorsText()}`).toBe(true);
        expect(schema, name).not.toHaveProperty('$schema');
        expect(schema, name).not.toHaveProperty('$id');
      }
    });

    it('describes the page calls with the application key, the session cookie and the CSRF header', () => {
      const send = document.paths['/user/send/message']?.post;
      expect(send?.security).toContainEqual({ appKey: [], sessionCookie: [], xsrfToken: [] });
      expect(document.components.securitySchemes.xsrfToken).toMatchObject({
        in: 'header',
        name: 'X-XSRF-TOKEN',
      });
      expect(document.paths['/api/v1/users/{externalId}']?.put?.security).toEqual([
        { integrationKey: [] },
      ]);
      expect(document.paths[integrationPaths.openapi]?.get?.security).toEqual([]);
      expect(document.components.schemas.SendMessageBody).toMatchObject({
        required: expect.arrayContaining(['receiver_id', 'messenger_user', 'job_id', 'message']),
      });
    });
  });

  describe('route coverage', () => {
    it('documents every route the server registers, with the same method and path', () => {
      const missing = routes()
        .filter((route) => !findOperation(document, route.method, route.url, route.staticFile))
        .map((route) => `${route.method} ${route.url}`);
      expect(missing).toEqual([]);
      // the fixture's static files are served, each under a documented prefix
      for (const file of STATIC_FILES)
        expect(registered.some((route) => route.url === `/${file}`)).toBe(true);
    });

    it('registers every documented operation', () => {
      const covered = new Set(
        routes().flatMap((route) => {
          const found = findOperation(document, route.method, route.url, route.staticFile);
          return found ? [`${found.method} ${found.path}`] : [];
        }),
      );
      const unregistered = operations
        .map((operation) => `${operation.method} ${openApiPathOf(operation.path)}`)
        .filter((key) => !covered.has(key));
      expect(unregistered).toEqual([]);
    });
  });

  describe('pages and files', () => {
    it('answers them as documented (the recorded exchanges are checked when the app closes)', async () => {
      const answers: Record<string, number> = {};
      for (const [method, url] of [
        ['GET', '/login?next=%2Fmessages&lang=ar'],
        ['GET', '/images/logos/acme-robotics.svg'],
        ['GET', '/images/photos/sara-haddad.svg'],
        ['GET', '/assets/app-0123abcd.js'],
        ['HEAD', '/assets/styles-0123abcd.css'],
        ['GET', '/lang/en.json'],
        ['GET', '/favicon.svg'],
        ['GET', '/sounds/notification.wav'],
      ] as const) {
        const response = await ctx.app.inject({ method, url });
        answers[`${method} ${url}`] = response.statusCode;
      }
      expect(
        Object.values(answers).every((status) => status === 200),
        JSON.stringify(answers),
      ).toBe(true);
      expect((await ctx.app.inject({ method: 'GET', url: '/' })).statusCode).toBe(302);
      expect((await ctx.app.inject({ method: 'GET', url: '/images/logos/x.png' })).statusCode).toBe(
        404,
      );
    });
  });

  describe('GET /api/v1/openapi.json', () => {
    it('answers the generated document, publicly and cacheable, with no key', async () => {
      const response = await ctx.app.inject({ method: 'GET', url: integrationPaths.openapi });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.headers['cache-control']).toBe('public, max-age=300');
      expect(response.json()).toEqual(JSON.parse(JSON.stringify(document)));
    });

    it('is served even with the integration API off', async () => {
      const off = await createTestApp(dialect, { INTEGRATION_KEYS: '' });
      try {
        const response = await off.app.inject({ method: 'GET', url: integrationPaths.openapi });
        expect(response.statusCode).toBe(200);
        expect(response.json<OpenApiDocument>().openapi).toBe('3.1.0');
      } finally {
        await off.close();
      }
    });
  });

  describe('GET /api/docs (the API reference page)', () => {
    it('answers an HTML page that loads the renderer and the document from this server only', async () => {
      const response = await ctx.app.inject({ method: 'GET', url: apiReferencePaths.page });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      const page = response.body;
      expect(page).toContain(`data-openapi="${integrationPaths.openapi}"`);
      const loaded = [...page.matchAll(/<(?:script|link)\b[^>]*(?:src|href)="([^"]+)"/g)].map(
        (match) => match[1] ?? '',
      );
      expect(loaded).toEqual(
        expect.arrayContaining([
          '/api/docs/swagger-ui.css',
          '/api/docs/swagger-ui-bundle.js',
          '/api/docs/reference.js',
        ]),
      );
      // nothing from another origin, and no inline script (the CSP allows none)
      for (const address of [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? ''))
        expect(address, address).toMatch(/^\/(?!\/)/);
      expect(page).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-eval');
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toContain("frame-ancestors 'self'");
    });

    it('serves each of the page’s files, Swagger UI’s from the installed package', async () => {
      for (const [file, type, text] of [
        ['swagger-ui-bundle.js', /^text\/javascript/, 'SwaggerUIBundle'],
        ['swagger-ui.css', /^text\/css/, '.swagger-ui'],
        ['reference.js', /^text\/javascript/, 'data-openapi'],
        ['reference.css', /^text\/css/, 'body'],
      ] as const) {
        const response = await ctx.app.inject({
          method: 'GET',
          url: apiReferencePaths.asset(file),
        });
        expect(response.statusCode, file).toBe(200);
        expect(response.headers['content-type'], file).toMatch(type);
        expect(response.body, file).toContain(text);
      }
      // the start-up script turns off the calls Swagger UI would make elsewhere ("Try it out", the validator badge)
      const script = await ctx.app.inject({
        method: 'GET',
        url: apiReferencePaths.asset('reference.js'),
      });
      expect(script.body).toContain('validatorUrl: null');
      expect(script.body).toContain('supportedSubmitMethods: []');
    });

    it('answers 404 for any other file under /api/docs/', async () => {
      for (const file of ['index.html', 'swagger-ui.js.map', '..%2Fpackage.json'])
        expect(
          (await ctx.app.inject({ method: 'GET', url: `${apiReferencePaths.page}/${file}` }))
            .statusCode,
          file,
        ).toBe(404);
    });

    it('is titled with the site’s name, escaped', async () => {
      const branded = await createTestApp(dialect, { SITE_NAME: 'Nile <Jobs> & Co' });
      try {
        const page = (await branded.app.inject({ method: 'GET', url: apiReferencePaths.page }))
          .body;
        expect(page).toContain('<title>API reference · Nile &lt;Jobs&gt; &amp; Co</title>');
      } finally {
        await branded.close();
      }
    });

    it('is served with the integration API off too', async () => {
      const off = await createTestApp(dialect, { INTEGRATION_KEYS: '' });
      try {
        expect(
          (await off.app.inject({ method: 'GET', url: apiReferencePaths.page })).statusCode,
        ).toBe(200);
      } finally {
        await off.close();
      }
    });
  });

  describe('the recorded-exchange check', () => {
    const exchange = (overrides: Partial<RecordedExchange>): RecordedExchange => ({
      method: 'GET',
      route: '/messenger/config',
      url: '/messenger/config',
      staticFile: false,
      params: {},
      query: {},
      body: undefined,
      requestType: undefined,
      status: 200,
      responseType: 'application/json',
      response: JSON.stringify({
        key: 'k',
        locales: ['en'],
        fallbackLocale: 'en',
        broadcaster: { key: 'b', cluster: 'mt1', forceTLS: false, authEndpoint: '/x' },
      }),
      ...overrides,
    });

    it('accepts an exchange that matches', () => {
      expect(checkExchange(exchange({}))).toEqual([]);
    });

    it('names what does not match: answer fields, undocumented routes, statuses, parameters and bodies', () => {
      expect(checkExchange(exchange({ response: JSON.stringify({ key: 'k' }) })).join()).toMatch(
        /response must have required property 'locales'/,
      );
      expect(checkExchange(exchange({ route: '/nowhere', url: '/nowhere' })).join()).toMatch(
        /GET \/nowhere is not in the OpenAPI document/,
      );
      expect(checkExchange(exchange({ status: 201 })).join()).toMatch(
        /status 201 is not documented/,
      );
      expect(checkExchange(exchange({ query: { surprise: '1' } })).join()).toMatch(
        /query must NOT have additional properties \(surprise\)/,
      );
      const archive = {
        method: 'POST',
        route: '/user/messenger/:id/archive',
        url: '/user/messenger/x/archive',
        params: { id: 'x' },
        body: { archived: true },
      };
      expect(checkExchange(exchange(archive)).join()).toMatch(/params\/id must match pattern/);
      expect(checkExchange(exchange(archive)).join()).toMatch(/the operation documents none/);
      expect(
        checkExchange(
          exchange({
            method: 'POST',
            route: '/user/send/message',
            url: '/user/send/message',
            requestType: 'application/json',
            body: { receiver_id: 1, messenger_user: 1, job_id: null },
          }),
        ).join(),
      ).toMatch(/body must have required property 'message'/);
    });
  });
});
