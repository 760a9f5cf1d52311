import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { randomToken } from '../../lib/crypto.js';
import { HttpError } from '../../lib/http-error.js';
import { setXsrfCookie, XSRF_COOKIE } from '../../plugins/auth.js';
import { avatarSvg } from './avatar-svg.js';

const CSRF_PLACEHOLDER = '__CSRF_TOKEN__';

export interface PagesOptions {
  config: Config;
  /** Folder of the built client (dist/web). */
  webRoot: string;
}

/** `/images/{kind}/{file}`: a generated demo logo or photo. */
export const demoImageParamsSchema = z.object({
  kind: z.enum(['logos', 'photos']),
  file: z.string().regex(/^[a-z0-9-]{1,60}\.svg$/),
});
/** A file of the built client (one route per file; documentation only: @fastify/static serves it). */
export const staticFileParamsSchema = z.object({ file: z.string() });

const escapeAttribute = (value: string) =>
  value.replace(/[&"<>]/g, (char) => `&#${char.charCodeAt(0)};`);

/** Serves the built pages with a CSRF token, the static client files, and generated demo images. */
export const pagesRoutes = async (app: FastifyInstance, options: PagesOptions) => {
  const { config, webRoot } = options;
  const templates = new Map<string, string>();
  const template = (file: string): string => {
    const cached = templates.get(file);
    if (cached) return cached;
    const path = join(webRoot, file);
    if (!existsSync(path))
      throw new HttpError(503, 'The client is not built yet: run `npm run build`.');
    const html = readFileSync(path, 'utf8');
    if (config.env === 'production') templates.set(file, html);
    return html;
  };

  const sendPage = (request: FastifyRequest, reply: FastifyReply, file: string) => {
    const token = request.viewer?.csrfToken ?? request.cookies[XSRF_COOKIE] ?? randomToken(24);
    setXsrfCookie(reply, config, token);
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(template(file).replaceAll(CSRF_PLACEHOLDER, escapeAttribute(token)));
  };

  app.get('/', async (_request, reply) => reply.redirect('/messages'));

  app.get('/messages', { onRequest: [app.optionalViewer] }, async (request, reply) => {
    if (!request.viewer) return reply.redirect(`/login?next=${encodeURIComponent(request.url)}`);
    return sendPage(request, reply, 'index.html');
  });

  app.get('/login', { onRequest: [app.optionalViewer] }, async (request, reply) =>
    sendPage(request, reply, 'login.html'),
  );

  app.get('/images/:kind/:file', async (request, reply) => {
    const parsed = demoImageParamsSchema.safeParse(request.params);
    if (!parsed.success) throw new HttpError(404, 'Not found.');
    const { kind, file } = parsed.data;
    return reply
      .type('image/svg+xml')
      .header('cache-control', 'public, max-age=86400')
      .send(avatarSvg(file.slice(0, -'.svg'.length), kind === 'logos' ? 'square' : 'circle'));
  });

  if (existsSync(webRoot)) {
    await app.register(fastifyStatic, {
      root: webRoot,
      index: false,
      wildcard: false,
      serveDotFiles: false,
    });
  }
};
