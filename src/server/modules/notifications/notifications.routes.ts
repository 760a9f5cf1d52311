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
    .send(unsubscribePage(locale, state, formAction));

/**
 * `/unsubscribe?token=…` (contract Part 2, RFC 8058): GET shows a confirmation page with a button;
 * POST (the mail program's one-click, or that button) turns e-mail notifications off. No session
 * and no CSRF token: the signed token in the link is the proof. The body is not needed and not read
 * beyond 4 KiB, whatever its type (RFC 8058 allows form and multipart encodings).
 */
export const notificationsRoutes = async (
  app: FastifyInstance,
  options: { notificationsService: NotificationsService },
) => {
  const service = options.notificationsService;
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
    const action = `${paths.unsubscribe}?token=${encodeURIComponent(token)}`;
    return sendPage(reply, 200, target.locale, 'confirm', action);
  });

  app.post(paths.unsubscribe, async (request, reply) => {
    const done = await service.unsubscribe(tokenOf(request.query));
    if (!done)
      return sendPage(reply, 400, acceptedLocale(request.headers['accept-language']), 'invalid');
    return sendPage(reply, 200, done.locale, 'done');
  });
};
