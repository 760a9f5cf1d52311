import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  credentialsSchema,
  messengerUserParamsSchema,
  paths,
  tokenRequestSchema,
} from '../../../shared/api.js';
import type { Config } from '../../config.js';
import { notFound } from '../../lib/http-error.js';
import { parseBody, parseInput } from '../../lib/validation.js';
import {
  bearerToken,
  csrfHeader,
  viewerOf,
  SESSION_COOKIE,
  sessionCookieOptions,
  setSessionCookies,
  XSRF_COOKIE,
} from '../../plugins/auth.js';
import { checkCsrf, type AuthService } from './auth.service.js';

export interface AuthRoutesOptions {
  config: Config;
  authService: AuthService;
  /** Called after a session ends, to close its live sockets. */
  onSessionEnded: (sessionHash: string) => Promise<void>;
  /** The demo accounts in demo mode; undefined otherwise (the call then answers 404). */
  demoAccounts: () => Promise<{ email: string; name: string; role: string }[] | undefined>;
}

/** The client's address: the socket's, or the one trusted proxies report (TRUST_PROXY). */
const clientAddress = (request: FastifyRequest) => request.ip;

export const authRoutes = async (app: FastifyInstance, options: AuthRoutesOptions) => {
  const { config, authService } = options;

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
      clientAddress(request),
      request.cookies[SESSION_COOKIE],
    );
    setSessionCookies(reply, config, session);
    // The replaced session's live sockets must not keep hearing its user's messages.
    if (previous) await endSessionSockets(request, previous);
    return { user: session.user };
  });

  app.post(paths.logout, { onRequest: [app.optionalViewer] }, async (request, reply) => {
    const viewer = request.viewer;
    // Signing out with a personal access token revokes that token.
    if (viewer?.tokenId != null && bearerToken(request)) {
      await authService.revokeToken(viewer.user.id, viewer.tokenId);
    } else if (viewer?.sessionHash) {
      checkCsrf(csrfHeader(request), request.cookies[XSRF_COOKIE], viewer);
      await authService.signOut(viewer.sessionHash);
      await endSessionSockets(request, viewer.sessionHash);
    }
    reply.clearCookie(SESSION_COOKIE, sessionCookieOptions(config));
    return reply.code(204).send();
  });

  app.post(paths.tokens, async (request, reply) => {
    const body = parseBody(tokenRequestSchema, request.body);
    const token = await authService.issueToken(body, clientAddress(request));
    return reply.code(201).header('cache-control', 'no-store').send({ token });
  });

  app.get(paths.tokens, { onRequest: [app.requireViewer] }, async (request) => ({
    tokens: await authService.listTokens(viewerOf(request).user.id),
  }));

  app.delete('/api/tokens/:id', { onRequest: [app.requireViewer] }, async (request, reply) => {
    const { id } = parseInput(messengerUserParamsSchema, request.params);
    await authService.revokeToken(viewerOf(request).user.id, id);
    return reply.code(204).send();
  });

  app.get(paths.demoAccounts, async () => {
    const accounts = await options.demoAccounts();
    if (!accounts) throw notFound();
    return { accounts };
  });
};
