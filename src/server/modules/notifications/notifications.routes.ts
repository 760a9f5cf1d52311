import type { FastifyReply, FastifyRequest } from 'fastify';
import { unsubscribeQuerySchema, type Locale } from '../../../shared/integration.js';
import { paths } from '../../../shared/paths.js';
import { defineRouteFor, documentedOnly, routesPlugin } from '../../http/route.js';
import { acceptedLocale } from '../../lib/accepted-locale.js';
import { signInStylesheets, type Brand } from '../../lib/static-page.js';
import { html, security } from '../../openapi/vocabulary.js';
import type { NotificationsService } from './notifications.service.js';
import { unsubscribePage, type UnsubscribePageState } from './unsubscribe-page.js';

/** Mail programs post a tiny form; anything larger is not an unsubscribe. */
const UNSUBSCRIBE_BODY_LIMIT = 4096;

const tokenOf = (query: unknown): string => {
  const value = (query as Record<string, unknown> | undefined)?.token;
  return typeof value === 'string' ? value : '';
};

export interface NotificationsRoutesOptions {
  notificationsService: NotificationsService;
  /** The built client, whose sign-in page's stylesheets the pages use. */
  webRoot?: string;
  /** The site's brand, on every page. */
  brand: Brand;
}

interface NotificationsRoutesDeps {
  service: NotificationsService;
  /** Answers a page (200) in the user's language; `formAction`: where its button posts. */
  sendPage: (
    reply: FastifyReply,
    locale: Locale,
    state: UnsubscribePageState,
    formAction?: string,
  ) => FastifyReply;
  /** Answers a link that cannot be used (400), in the language the browser asks for. */
  refuse: (
    request: FastifyRequest,
    reply: FastifyReply,
    state: 'invalid' | 'expired',
  ) => FastifyReply;
}

const withToken = (path: string, token: string) => `${path}?token=${encodeURIComponent(token)}`;

const defineRoute = defineRouteFor<NotificationsRoutesDeps>({
  tag: 'settings',
  security: security.public,
});

/** The link's signed token, the proof (a faulty one answers a page in the user's language, not a 422). */
const linkQuery = documentedOnly(unsubscribeQuerySchema);

/**
 * `/unsubscribe?token=…` (RFC 8058 one-click unsubscribe): GET shows a confirmation page with a
 * button; POST (the mail program's one-click, or that button) turns e-mail notifications off. No
 * session and no CSRF token: the signed token in the link is the proof. The body is not needed and
 * not read beyond 4 KiB, whatever its type (RFC 8058 allows form and multipart encodings).
 */
export const notificationsRoutes = routesPlugin(
  [
    defineRoute({
      method: 'get',
      path: paths.unsubscribe,
      query: linkQuery,
      operationId: 'showUnsubscribePage',
      summary: 'The page an e-mail’s unsubscribe link opens: asks before turning e-mails off',
      description:
        'The link at the bottom of every notification e-mail opens this page, in the user’s language: it asks before turning the e-mails off (a link scanner that follows it changes nothing). An invalid or expired token shows a page saying so.',
      responses: {
        200: html('A confirmation page with a button (in the user’s language).'),
        400: html('The link is invalid.'),
      },
      handler: async ({ query, request, reply }, { service, sendPage, refuse }) => {
        const token = tokenOf(query);
        const target = await service.unsubscribeTarget(token);
        if (!target) return refuse(request, reply, 'invalid');
        return sendPage(reply, target.locale, 'confirm', withToken(paths.unsubscribe, token));
      },
    }),
    defineRoute({
      method: 'post',
      path: paths.unsubscribe,
      query: linkQuery,
      operationId: 'unsubscribeOneClick',
      summary:
        'One-click unsubscribe (RFC 8058): turns the token’s user’s e-mail notifications off, without a session',
      description:
        'What the mail client’s own "Unsubscribe" button posts (the e-mail’s `List-Unsubscribe-Post` header), and what the page’s button submits: turns the user’s e-mail notifications off without signing in, and answers a page with an undo.',
      responses: {
        200: html('E-mail notifications are off (a page in the user’s language, with an undo).'),
        400: html('The link is invalid.'),
      },
      handler: async ({ query, request, reply }, { service, sendPage, refuse }) => {
        const done = await service.unsubscribe(tokenOf(query));
        if (!done) return refuse(request, reply, 'invalid');
        return sendPage(
          reply,
          done.locale,
          'done',
          withToken(paths.resubscribe, done.resubscribeToken),
        );
      },
    }),
    // The undo: a POST with the undo's own signed token, valid for an hour, that only the "e-mails
    // are off" page gives (no session: the token is the proof, so another site cannot forge it; a
    // GET changes nothing and is not answered). The e-mail's unsubscribe token is refused.
    defineRoute({
      method: 'post',
      path: paths.resubscribe,
      query: linkQuery,
      operationId: 'undoUnsubscribe',
      summary:
        'Undoes an unsubscribe: turns the token’s user’s e-mail notifications back on, without a session. Only with the undo’s own token, valid for an hour, that the unsubscribe page gives (never the e-mail’s unsubscribe token)',
      description:
        'The undo button of the page shown after unsubscribing: turns the user’s e-mail notifications back on without signing in. Only the undo’s own short-lived token works here.',
      responses: {
        200: html('E-mail notifications are on again (a page in the user’s language).'),
        400: html('The link has expired (or is not an undo token).'),
      },
      handler: async ({ query, request, reply }, { service, sendPage, refuse }) => {
        const done = await service.resubscribe(tokenOf(query));
        if (!done) return refuse(request, reply, 'expired');
        return sendPage(reply, done.locale, 'resubscribed');
      },
    }),
  ],
  async (app, options: NotificationsRoutesOptions): Promise<NotificationsRoutesDeps> => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: UNSUBSCRIBE_BODY_LIMIT },
      (_request, _body, done) => done(null, undefined),
    );
    const answer = (
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
          unsubscribePage(locale, state, options.brand, {
            stylesheets: signInStylesheets(options.webRoot),
            ...(formAction ? { formAction } : {}),
          }),
        );
    return {
      service: options.notificationsService,
      sendPage: (reply, locale, state, formAction) => answer(reply, 200, locale, state, formAction),
      refuse: (request, reply, state) =>
        answer(reply, 400, acceptedLocale(request.headers['accept-language']), state),
    };
  },
);
