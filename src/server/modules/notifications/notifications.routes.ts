import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { paths } from '../../../shared/paths.js';
import { acceptedLocale } from '../../lib/accepted-locale.js';
import type { NotificationsService } from './notifications.service.js';
import { unsubscribePage, type UnsubscribePageState } from './unsubscribe-page.js';
import type { Locale } from '../../../shared/integration.js';

/** Mail programs post a tiny form; anything larger is not an unsubscribe. */
const UNSUBSCRIBE_BODY_LIMIT = 4096;

const tokenOf = (query: unknown): string => {
  const value = (query as Record<string, unknown> | undefined)?.token;
  return typeof value === 'string' ? value : '';
};

/**
 * The stylesheets of the built sign-in page (`login.html` in `webRoot`), so that the unsubscribe
 * pages look like it; none while the client is not built. Read once they are found.
 */
const signInStylesheets = (webRoot: string | undefined) => {
  let found: string[] | undefined;
  return (): string[] => {
    if (found || !webRoot) return found ?? [];
    const file = join(webRoot, 'login.html');
    if (!existsSync(file)) return [];
    const html = readFileSync(file, 'utf8');
    found = [...html.matchAll(/<link\b[^>]*>/g)]
      .map(([tag]) => tag)
      .filter((tag) => /\brel="stylesheet"/.test(tag))
      .flatMap((tag) => /\bhref="([^"]+)"/.exec(tag)?.[1] ?? []);
    return found;
  };
};

/**
 * `/unsubscribe?token=…` (contract Part 2, RFC 8058): GET shows a confirmation page with a button;
 * POST (the mail program's one-click, or that button) turns e-mail notifications off. No session
 * and no CSRF token: the signed token in the link is the proof. The body is not needed and not read
 * beyond 4 KiB, whatever its type (RFC 8058 allows form and multipart encodings).
 */
export const notificationsRoutes = async (
  app: FastifyInstance,
  options: { notificationsService: NotificationsService; webRoot?: string },
) => {
  const service = options.notificationsService;
  const stylesheets = signInStylesheets(options.webRoot);
  const sendPage = (
    reply: FastifyReply,
    status: number,
    locale: Locale,
    state: UnsubscribePageState,
    formAction?: string,
  ) =>
    reply
      .code(status)
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .type('text/html; charset=utf-8')
      .send(
        unsubscribePage(locale, state, {
          stylesheets: stylesheets(),
          ...(formAction ? { formAction } : {}),
        }),
      );
  const withToken = (path: string, token: string) => `${path}?token=${encodeURIComponent(token)}`;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: UNSUBSCRIBE_BODY_LIMIT },
    (_request, _body, done) => done(null, undefined),
  );

  app.get(paths.unsubscribe, async (request, reply) => {
    const token = tokenOf(request.query);
    const target = await service.unsubscribeTarget(token);
    if (!target)
      return sendPage(reply, 400, acceptedLocale(request.headers['accept-language']), 'invalid');
    return sendPage(reply, 200, target.locale, 'confirm', withToken(paths.unsubscribe, token));
  });

  app.post(paths.unsubscribe, async (request, reply) => {
    const token = tokenOf(request.query);
    const done = await service.unsubscribe(token);
    if (!done)
      return sendPage(reply, 400, acceptedLocale(request.headers['accept-language']), 'invalid');
    return sendPage(
      reply,
      200,
      done.locale,
      'done',
      withToken(paths.resubscribe, done.resubscribeToken),
    );
  });

  // The undo: a POST with the undo's own signed token, valid for an hour, that only the "e-mails
  // are off" page gives (no session: the token is the proof, so another site cannot forge it; a
  // GET changes nothing and is not answered). The e-mail's unsubscribe token is refused.
  app.post(paths.resubscribe, async (request, reply) => {
    const done = await service.resubscribe(tokenOf(request.query));
    if (!done)
      return sendPage(reply, 400, acceptedLocale(request.headers['accept-language']), 'expired');
    return sendPage(reply, 200, done.locale, 'resubscribed');
  });
};
