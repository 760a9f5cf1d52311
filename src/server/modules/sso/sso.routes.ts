import type { FastifyInstance } from 'fastify';
import { paths } from '../../../shared/paths.js';
import type { Config } from '../../config.js';
import { SESSION_COOKIE, setSessionCookies } from '../../plugins/auth.js';
import { acceptedLocale } from '../../lib/accepted-locale.js';
import { ssoRefusedPage } from './sso-page.js';
import { ssoLinkLocale, SsoRefused, type SsoService } from './sso.service.js';

export interface SsoRoutesOptions {
  config: Config;
  ssoService: SsoService;
  /** Called after a session is replaced, to close its live sockets. */
  onSessionEnded: (sessionHash: string) => Promise<void>;
}

const queryString = (query: unknown, name: string): string | undefined => {
  const value = (query as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
};

/** `GET /sso?token=<JWT>[&next=/path]`: 303 to the destination with a new session, or a 401 page. */
export const ssoRoutes = async (app: FastifyInstance, options: SsoRoutesOptions) => {
  const { config, ssoService } = options;

  app.get(paths.sso, async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    const token = queryString(request.query, 'token');
    let result;
    try {
      result = await ssoService.signIn(
        token,
        queryString(request.query, 'next'),
        request.cookies[SESSION_COOKIE],
      );
    } catch (error) {
      if (!(error instanceof SsoRefused)) throw error;
      request.log.warn({ reason: error.reason }, 'sign-in link refused');
      const locale = ssoLinkLocale(token) ?? acceptedLocale(request.headers['accept-language']);
      return reply.code(401).type('text/html; charset=utf-8').send(ssoRefusedPage(locale));
    }
    setSessionCookies(reply, config, result.session);
    // The replaced session's live sockets must not keep hearing its user's messages.
    if (result.replacedSessionHash)
      await options.onSessionEnded(result.replacedSessionHash).catch((error: unknown) => {
        request.log.warn({ err: error }, 'could not close the session’s sockets on every instance');
      });
    return reply.redirect(result.destination, 303);
  });
};
