import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { credentialsSchema, paths } from '../../../shared/api.js';
import type { Config } from '../../config.js';
import { parseBody } from '../../lib/validation.js';
import {
  csrfHeader,
  SESSION_COOKIE,
  sessionCookieOptions,
  setXsrfCookie,
  XSRF_COOKIE,
} from '../../plugins/auth.js';
import { checkCsrf, type AuthService } from './auth.service.js';

export interface AuthRoutesOptions {
  config: Config;
  authService: AuthService;
  /** Called after a session ends, to close its live sockets. */
  onSessionEnded: (sessionHash: string) => Promise<void>;
  demoAccounts: () => Promise<{ email: string; name: string; role: string }[]>;
}

const clientKey = (request: FastifyRequest) => request.ip;

export const authRoutes = async (app: FastifyInstance, options: AuthRoutesOptions) => {
  const { config, authService } = options;

  const startSession = (reply: FastifyReply, sessionId: string, csrfToken: string) => {
    reply.setCookie(SESSION_COOKIE, sessionId, {
      ...sessionCookieOptions(config),
      maxAge: 7 * 24 * 3600,
    });
    setXsrfCookie(reply, config, csrfToken);
  };

  /**
   * Closes the sockets of a session that is gone for good (they can never be authorized again).
   * This can fail only for sockets on other instances while Redis is down; those hear nothing
   * meanwhile and are made to reconnect (and are refused) once the fan-out is back.
   */
  const endSessionSockets = async (request: FastifyRequest, sessionHash: string) => {
    await options.onSessionEnded(sessionHash).catch((error: unknown) => {
      request.log.warn({ err: error }, 'could not close the session’s sockets on every instance');
    });
  };

  app.post(paths.login, { onRequest: [app.optionalViewer] }, async (request, reply) => {
    checkCsrf(csrfHeader(request), request.cookies[XSRF_COOKIE], request.viewer);
    const credentials = parseBody(credentialsSchema, request.body);
    const previous = request.viewer?.sessionHash ?? null;
    const session = await authService.signIn(
      credentials,
      clientKey(request),
      request.cookies[SESSION_COOKIE],
    );
    startSession(reply, session.sessionId, session.csrfToken);
    // The replaced session's live sockets must not keep hearing its user's messages.
    if (previous) await endSessionSockets(request, previous);
    return { user: session.user };
  });

  app.post(paths.logout, { onRequest: [app.optionalViewer] }, async (request, reply) => {
    const viewer = request.viewer;
    if (viewer?.sessionHash) {
      checkCsrf(csrfHeader(request), request.cookies[XSRF_COOKIE], viewer);
      await authService.signOut(viewer.sessionHash);
      await endSessionSockets(request, viewer.sessionHash);
    }
    reply.clearCookie(SESSION_COOKIE, sessionCookieOptions(config));
    return reply.code(204).send();
  });

  app.post(paths.tokens, async (request, reply) => {
    const credentials = parseBody(credentialsSchema, request.body);
    const token = await authService.issueToken(credentials, clientKey(request));
    return reply.code(201).send({ token });
  });

  app.get(paths.demoAccounts, async () => ({ accounts: await options.demoAccounts() }));
};
