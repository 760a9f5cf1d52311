import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errorResponseSchema } from '../../../shared/api-fields.js';
import { loginPageQuerySchema, messagesPageQuerySchema } from '../../../shared/page-queries.js';
import { paths } from '../../../shared/paths.js';
import { localeSchema, type Locale } from '../../../shared/integration.js';
import { pathTemplate, sameOriginPath } from '../../../shared/paths.js';
import type { Config } from '../../config.js';
import {
  defineRouteFor,
  documentedOnly,
  routesPlugin,
  type RouteDocumentation,
} from '../../http/route.js';
import { brandPage } from '../../lib/brand-page.js';
import { acceptedLocale } from '../../lib/accepted-locale.js';
import { randomToken, sha256 } from '../../lib/crypto.js';
import { signInStylesheets } from '../../lib/static-page.js';
import { HttpError } from '../../lib/http-error.js';
import { errors, html, redirect, security } from '../../openapi/vocabulary.js';
import { setXsrfCookie, XSRF_COOKIE } from '../../plugins/auth.js';
import { avatarSvg } from './avatar-svg.js';
import { messagesFraming, notEmbeddablePage, type MessagesFraming } from './embed-page.js';
import { hostSignInFor } from './host-sign-in.js';

const CSRF_PLACEHOLDER = '__CSRF_TOKEN__';

export interface PagesOptions {
  config: Config;
  /** Folder of the built client (dist/web). */
  webRoot: string;
  /** The user's saved `locale` (null: never set): the messaging page opens in it (docs/language.md). */
  savedLocale?: (userId: number) => Promise<Locale | null | undefined>;
  /** Saves the user's `locale` (the page opened with `?lang=`). */
  saveLocale?: (userId: number, locale: Locale) => Promise<unknown>;
}

/** `/images/{kind}/{file}`: a generated demo logo or photo. */
export const demoImageParamsSchema = z.object({
  kind: z
    .enum(['logos', 'photos'])
    .describe('`logos` (a square mark) or `photos` (a round portrait).'),
  file: z
    .string()
    .regex(/^[a-z0-9-]{1,60}\.svg$/)
    .describe(
      'A name in lower case with dashes, ending `.svg` (e.g. `sara-haddad.svg`): the picture is drawn from it.',
    ),
});
/** A file of the built client (one route per file; documentation only: @fastify/static serves it). */
export const staticFileParamsSchema = z.object({
  file: z.string().describe('The file’s name, as the built page refers to it.'),
});

const escapeAttribute = (value: string) =>
  value.replace(/[&"<>]/g, (char) => `&#${char.charCodeAt(0)};`);

/** The language a page is served in, and the user's saved one (null: never set). */
interface PageLanguage {
  lang: Locale;
  saved: Locale | null;
}

/**
 * The page's `<html>` in `lang` (with its direction) before any script runs, and the saved
 * `locale` as `data-user-locale` for the page's script (src/web/lib/i18n.ts), so a user whose
 * language is Arabic gets the page in Arabic at once in a browser that has never seen it.
 */
const withLanguage = (page: string, { lang, saved }: PageLanguage): string =>
  page.replace(/<html\b[^>]*>/i, (tag) => {
    const others = tag
      .slice('<html'.length, -1)
      .replace(/\s(lang|dir|data-user-locale)="[^"]*"/g, '');
    const dir = lang === 'ar' ? 'rtl' : 'ltr';
    const user = saved === null ? '' : ` data-user-locale="${saved}"`;
    return `<html lang="${lang}" dir="${dir}"${user}${others}>`;
  });

/** Answers a built page (`index.html`, `login.html`) with the caller's CSRF token in it. */
type SendPage = (
  request: FastifyRequest,
  reply: FastifyReply,
  file: string,
  language?: PageLanguage,
) => FastifyReply;

/** The user's saved `locale` (null: never set). */
type SavedLocale = (userId: number) => Promise<Locale | null>;

/** Saves the user's `locale`. */
type SaveLocale = (userId: number, locale: Locale) => Promise<void>;

/**
 * With `LOGIN_URL`: where a visitor without a session is sent for a path and query of this site
 * (`LOGIN_URL?return_to=<PUBLIC_URL + path and query>`); undefined: the messenger's own `/login`.
 */
type HostSignIn = ((pathAndQuery: string | null | undefined) => string) | undefined;

/** A built file served as it is (`embed.js`, `embed.d.ts`): with an ETag, or 404 while not built. */
type SendBuiltFile = (
  request: FastifyRequest,
  reply: FastifyReply,
  file: string,
  type: string,
) => FastifyReply;

const defineRoute = defineRouteFor<{
  sendPage: SendPage;
  savedLocale: SavedLocale;
  saveLocale: SaveLocale;
  hostSignIn: HostSignIn;
  /** Who may frame a `/messages…` answer (EMBED_ORIGINS and the query's `embed`, `host_origin`). */
  framing: (query: unknown) => MessagesFraming;
  /** The 400 page of an embedded page whose `host_origin` may not embed it. */
  notEmbeddable: (request: FastifyRequest) => string;
  sendBuiltFile: SendBuiltFile;
}>({
  tag: 'pages',
  security: security.public,
});

/** A page: signed in or not (the page sets the `XSRF-TOKEN` cookie either way). */
const pageCall = {
  method: 'get',
  security: security.optionalSession,
  onRequest: (app: FastifyInstance) => [app.optionalViewer],
} as const;

/** A file the build writes for host pages (`embed.js`, `embed.d.ts`): public, cacheable, any origin. */
const builtFileRoute = (
  path: string,
  operationId: string,
  summary: string,
  description: string,
  built: { file: string; type: string; what: string },
) =>
  defineRoute({
    method: 'get',
    path,
    operationId,
    summary,
    description,
    responses: {
      200: { description: built.what, media: { type: built.type.split(';')[0] ?? built.type } },
      304: { description: 'Unchanged since the `If-None-Match` ETag.' },
      404: { description: 'Not built yet (`npm run build`).', schema: errorResponseSchema },
    },
    handler: async ({ request, reply }, { sendBuiltFile }) =>
      sendBuiltFile(request, reply, built.file, built.type),
  });

/**
 * The built client's files, served as they are by @fastify/static (one route per file under
 * `prefix`): documented here, not declared as routes.
 */
const staticFiles = (prefix: string, what: string, idSuffix: string): RouteDocumentation[] =>
  (['get', 'head'] as const).map((method) => ({
    method,
    path: pathTemplate(`${prefix}:file`),
    operationId: `${method}Static${idSuffix}`,
    summary: `${method === 'head' ? 'Headers of ' : ''}${what} (a file of the built client)`,
    description: `${method === 'head' ? 'The headers the GET would answer, without the body. ' : ''}Served as built, by name (the page refers to them; nothing here is for a host to call).`,
    tag: 'pages',
    security: security.public,
    params: staticFileParamsSchema,
    responses: {
      200: { description: 'The file.', media: { type: '*/*', binary: true } },
      404: { description: 'No such file.', schema: errorResponseSchema },
    },
  }));
export const staticFileOperations: readonly RouteDocumentation[] = [
  ...staticFiles('/', 'A top-level file (favicon.svg, index.html, login.html)', 'File'),
  ...staticFiles('/assets/', 'A script or style sheet', 'Asset'),
  ...staticFiles('/lang/', 'A translation file', 'Translation'),
  ...staticFiles('/sounds/', 'A sound', 'Sound'),
];

/** Serves the built pages with a CSRF token, the static client files, and generated demo images. */
export const pagesRoutes = routesPlugin(
  [
    defineRoute({
      method: 'get',
      path: paths.home,
      operationId: 'home',
      summary: 'Redirects to the messaging page',
      description: 'The site’s root sends the browser to the messaging page.',
      responses: { 302: redirect('To `/messages`') },
      handler: async ({ reply }) => reply.redirect(paths.messages),
    }),
    defineRoute({
      ...pageCall,
      path: paths.messages,
      operationId: 'messagesPage',
      summary: 'The messaging page (sets the `XSRF-TOKEN` cookie)',
      description:
        "The messaging page itself (a single-page application). Without a session it sends the browser to sign in and back. `target` and `tab` open a conversation, as in the `company_url` and `candidate_url` of `POST /api/v1/conversations`. With `EMBED_ORIGINS`, its CSP lets those origins frame it (`frame-ancestors 'self' <origins>`, no `X-Frame-Options`); `embed` with `host_origin` (one of them) is the embedded page: framed by that origin only, served without a session too (its script reports `signin-required` to the host).",
      query: documentedOnly(messagesPageQuerySchema),
      responses: {
        200: html('The page.'),
        400: html(
          '`embed` with a `host_origin` that is not one of `EMBED_ORIGINS`: a short page ("This page cannot be embedded here."), `frame-ancestors \'none\'`.',
        ),
        302: redirect(
          'Not signed in: to `LOGIN_URL` with `return_to=<PUBLIC_URL + this path and query>` added to its query, or without `LOGIN_URL` to `/login?next=<this path and query>`',
        ),
        ...errors(503),
      },
      handler: async ({ request, reply }, deps) => {
        const { sendPage, savedLocale, saveLocale, hostSignIn, framing, notEmbeddable } = deps;
        const frame = framing(request.query);
        if ('refused' in frame) {
          reply.frameAncestors = ["'none'"];
          return reply
            .code(400)
            .type('text/html; charset=utf-8')
            .header('cache-control', 'no-store')
            .send(notEmbeddable(request));
        }
        reply.frameAncestors = frame.frameAncestors;
        const asked = localeSchema.safeParse((request.query as { lang?: unknown }).lang);
        if (!request.viewer) {
          // an embedded page is served anyway: its script reports `signin-required` to the host
          if (frame.embedded)
            return sendPage(request, reply, 'index.html', {
              lang: asked.success ? asked.data : 'en',
              saved: null,
            });
          void reply.header('cache-control', 'no-store');
          return reply.redirect(
            hostSignIn?.(request.url) ?? `${paths.login}?next=${encodeURIComponent(request.url)}`,
          );
        }
        // `?lang=` first, saved as the user's locale (the one value the host's API reads too), else
        // the saved locale; else the page's own default until its script reads the browser's
        const userId = request.viewer.user.id;
        let saved = await savedLocale(userId);
        if (asked.success && asked.data !== saved) {
          await saveLocale(userId, asked.data);
          saved = asked.data;
        }
        const lang = asked.success ? asked.data : (saved ?? 'en');
        return sendPage(request, reply, 'index.html', { lang, saved });
      },
    }),
    defineRoute({
      ...pageCall,
      path: paths.login,
      operationId: 'loginPage',
      summary: 'The sign-in page (sets the `XSRF-TOKEN` cookie); with `LOGIN_URL`, the host’s',
      description:
        'The messenger’s own e-mail and password sign-in page, for accounts that have a password (demo accounts, staff). With `LOGIN_URL` set, a visitor without a session is sent to the host’s sign-in page instead, with `return_to`; a signed-in visitor goes straight on to `next`.',
      query: documentedOnly(loginPageQuerySchema),
      responses: {
        200: html('The page (without `LOGIN_URL`).'),
        302: redirect(
          'With `LOGIN_URL`: not signed in, to `LOGIN_URL` with `return_to=<PUBLIC_URL + next>` (`PUBLIC_URL/messages` without a `next` of this site) added to its query; signed in, straight to `next` (or `/messages`)',
        ),
        ...errors(503),
      },
      handler: async ({ query, request, reply }, { sendPage, hostSignIn }) => {
        if (!hostSignIn) return sendPage(request, reply, 'login.html');
        const next = (query as Record<string, unknown> | undefined)?.next;
        const asked = sameOriginPath(typeof next === 'string' ? next : null);
        // a `next` of this very page would send a signed-in visitor round in circles
        const destination =
          asked && new URL(asked, 'http://x').pathname !== paths.login ? asked : paths.messages;
        void reply.header('cache-control', 'no-store');
        // Already signed in: nothing to sign in to, on to where they were going.
        return reply.redirect(request.viewer ? destination : hostSignIn(destination));
      },
    }),
    builtFileRoute(
      paths.embedScript,
      'embedScript',
      'The embedding script for host pages (`window.JobMessenger`)',
      'The script a host page loads to embed the messenger (`JobMessenger.mount(element, options)`, docs/embedding.md): public, cacheable for 5 minutes, loadable from any origin. The messenger only lets the pages of `EMBED_ORIGINS` frame it.',
      { file: 'embed.js', type: 'text/javascript; charset=utf-8', what: 'The script.' },
    ),
    builtFileRoute(
      paths.embedTypes,
      'embedTypes',
      'The TypeScript types of the embedding script',
      'The declarations of `embed.js` (options, handle, events), made from its source by the build.',
      {
        file: 'embed.d.ts',
        type: 'application/typescript; charset=utf-8',
        what: 'The declarations.',
      },
    ),
    defineRoute({
      method: 'get',
      path: paths.demoImage,
      operationId: 'demoImage',
      summary: 'A generated demo logo or photo',
      description:
        'Pictures drawn for the demo accounts, so the demo needs no image files; the same name always gives the same picture.',
      // a name that is not a demo image is not found (404), not invalid
      params: documentedOnly(demoImageParamsSchema),
      responses: {
        200: { description: 'The image.', media: { type: 'image/svg+xml' } },
        ...errors(404),
      },
      handler: async ({ params, reply }) => {
        const parsed = demoImageParamsSchema.safeParse(params);
        if (!parsed.success) throw new HttpError(404, 'Not found.');
        const { kind, file } = parsed.data;
        return reply
          .type('image/svg+xml')
          .header('cache-control', 'public, max-age=86400')
          .send(avatarSvg(file.slice(0, -'.svg'.length), kind === 'logos' ? 'square' : 'circle'));
      },
    }),
  ],
  async (app, options: PagesOptions) => {
    const { config, webRoot } = options;
    const savedLocale = options.savedLocale;
    const templates = new Map<string, string>();
    const template = (file: string): string => {
      const cached = templates.get(file);
      if (cached) return cached;
      const path = join(webRoot, file);
      if (!existsSync(path))
        throw new HttpError(503, 'The client is not built yet: run `npm run build`.');
      const page = readFileSync(path, 'utf8');
      if (config.env === 'production') templates.set(file, page);
      return page;
    };
    if (existsSync(webRoot)) {
      await app.register(fastifyStatic, {
        root: webRoot,
        index: false,
        wildcard: false,
        serveDotFiles: false,
        // served by their own routes, with their own headers
        globIgnore: ['embed.js', 'embed.d.ts'],
      });
    }
    return {
      hostSignIn: hostSignInFor(config),
      framing: (query) =>
        messagesFraming(config.embedOrigins, query as Record<string, unknown> | undefined),
      notEmbeddable: (request) => {
        const lang = localeSchema.safeParse((request.query as { lang?: unknown }).lang);
        const locale = lang.success
          ? lang.data
          : acceptedLocale(request.headers['accept-language']);
        return notEmbeddablePage(locale, config.brand, signInStylesheets(webRoot));
      },
      sendBuiltFile: (request, reply, file, type) => {
        const path = join(webRoot, file);
        if (!existsSync(path))
          throw new HttpError(404, `${file} is not built yet: run \`npm run build\`.`);
        const body = readFileSync(path);
        const etag = `"${sha256(body.toString('utf8')).slice(0, 32)}"`;
        void reply.headers({
          etag,
          'cache-control': 'public, max-age=300',
          'cross-origin-resource-policy': 'cross-origin',
        });
        if (request.headers['if-none-match'] === etag) return reply.code(304).send();
        return reply.type(type).send(body);
      },
      sendPage: (request, reply, file, language) => {
        const token = request.viewer?.csrfToken ?? request.cookies[XSRF_COOKIE] ?? randomToken(24);
        setXsrfCookie(reply, config, token);
        const branded = brandPage(template(file), config.brand).replaceAll(
          CSRF_PLACEHOLDER,
          escapeAttribute(token),
        );
        return reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(language ? withLanguage(branded, language) : branded);
      },
      savedLocale: async (userId) => (savedLocale ? ((await savedLocale(userId)) ?? null) : null),
      saveLocale: async (userId, locale) => {
        await options.saveLocale?.(userId, locale);
      },
    };
  },
);
