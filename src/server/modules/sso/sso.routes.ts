import { paths } from '../../../shared/paths.js';
import { ssoQuerySchema } from '../../../shared/integration.js';
import type { Config } from '../../config.js';
import { defineRouteFor, documentedOnly, routesPlugin } from '../../http/route.js';
import { acceptedLocale } from '../../lib/accepted-locale.js';
import { signInStylesheets } from '../../lib/static-page.js';
import { errors, html, redirect, security } from '../../openapi/vocabulary.js';
import {
  clearSessionCookie,
  endSessionSockets,
  isFramed,
  SESSION_COOKIE,
  setSessionCookies,
} from '../../plugins/auth.js';
import { ssoRefusedPage } from './sso-page.js';
import {
  refusedFrameDestination,
  ssoLinkLocale,
  SsoRefused,
  type SsoService,
} from './sso.service.js';

export interface SsoRoutesOptions {
  config: Config;
  ssoService: SsoService;
  /** The built client, whose sign-in page's stylesheets the refusal page uses. */
  webRoot?: string;
  /** Called after a session is replaced, to close its live sockets. */
  onSessionEnded: (sessionHash: string) => Promise<void>;
}

const queryString = (query: unknown, name: string): string | undefined => {
  const value = (query as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
};

const defineRoute = defineRouteFor<SsoRoutesOptions>({ tag: 'auth', security: security.public });

/** `GET /sso?token=<JWT>[&next=/path]`: 303 to the destination with a new session, or a 401 page. */
export const ssoRoutes = routesPlugin([
  defineRoute({
    method: 'get',
    path: paths.sso,
    operationId: 'signInWithLink',
    summary: 'Sign in through a link made by the host site (an HS256 JWT signed with SSO_SECRET)',
    description:
      'The host site sends the browser here with a link it signed: the messenger checks it, creates or updates the user from its claims, opens a session and redirects (303) to `next`. A bad, expired or reused link answers 401 with a short page in the user’s language and changes no session. The token’s claims: `sub` (your user id), `jti` (unique), `iat` and `exp` (at most 600 s apart), and optionally `role`, `name`, `email`, `image_url`, `locale` and `next`. Opened in a frame (`Sec-Fetch-Dest: iframe`) while `EMBED_ORIGINS` is set, the session and `XSRF-TOKEN` cookies are `SameSite=None; Secure; Partitioned`, which a browser blocking third-party cookies keeps.',
    // A faulty link answers a page in the user's language, not a 422.
    query: documentedOnly(ssoQuerySchema),
    responses: {
      303: redirect(
        'Signed in: to `next` (a same-origin path) or `/messages`. In a frame (`sec-fetch-dest: iframe`, with `EMBED_ORIGINS`), a refused link whose `next` is an embedded page (`/messages?embed=…`) goes there without a session, and the page reports `signin-required` to its host',
        'see other',
      ),
      401: html('The link is invalid or expired (a short page in the user’s language).'),
      ...errors(404),
    },
    handler: async ({ query, request, reply }, { config, ssoService, onSessionEnded, webRoot }) => {
      void reply.header('cache-control', 'no-store');
      const token = queryString(query, 'token');
      let result;
      try {
        result = await ssoService.signIn(
          token,
          queryString(query, 'next'),
          request.cookies[SESSION_COOKIE],
        );
      } catch (error) {
        if (!(error instanceof SsoRefused)) throw error;
        request.log.warn({ reason: error.reason }, 'sign-in link refused');
        // in a frame, the embedded page says "sign in again" to its host (the 401 page could not be framed)
        const embedded = isFramed(request, config)
          ? refusedFrameDestination(token, queryString(query, 'next'))
          : undefined;
        if (embedded) {
          // a session of someone else signed in here before must not answer for this link's user
          clearSessionCookie(reply, config);
          return reply.redirect(embedded, 303);
        }
        const locale = ssoLinkLocale(token) ?? acceptedLocale(request.headers['accept-language']);
        return reply
          .code(401)
          .type('text/html; charset=utf-8')
          .send(ssoRefusedPage(locale, config.brand, signInStylesheets(webRoot)));
      }
      setSessionCookies(reply, config, result.session);
      // The replaced session's live sockets must not keep hearing its user's messages.
      if (result.replacedSessionHash)
        await endSessionSockets(request, onSessionEnded, result.replacedSessionHash);
      return reply.redirect(result.destination, 303);
    },
  }),
]);
