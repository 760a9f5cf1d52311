import type { FastifyRequest } from 'fastify';
import {
  credentialsSchema,
  demoAccountsResponseSchema,
  loginResponseSchema,
  tokenParamsSchema,
  tokenListResponseSchema,
  tokenRequestSchema,
  tokenResponseSchema,
} from '../../../shared/auth.js';
import { paths } from '../../../shared/paths.js';
import type { Config } from '../../config.js';
import { defineRouteFor, routesPlugin } from '../../http/route.js';
import { notFound } from '../../lib/http-error.js';
import { bodyErrors, errors, security } from '../../openapi/vocabulary.js';
import {
  bearerToken,
  clearSessionCookie,
  csrfHeader,
  endSessionSockets,
  viewerOf,
  SESSION_COOKIE,
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

const defineRoute = defineRouteFor<AuthRoutesOptions>({ tag: 'auth', security: security.public });

export const authRoutes = routesPlugin([
  defineRoute({
    method: 'post',
    path: paths.login,
    operationId: 'login',
    summary: 'Sign in with e-mail and password (sets the session cookie, rotates the session id)',
    description:
      'Checks an e-mail address and password, opens a session (the httpOnly `messenger_session` cookie; any previous session id is replaced) and answers who signed in. Needs the CSRF header. Repeated failures are rate limited (429). Users brought by the host usually have no password and sign in through sign-in links (`GET /sso`) instead.',
    security: security.login,
    body: credentialsSchema,
    responses: {
      200: { description: 'Signed in.', schema: loginResponseSchema },
      ...errors(...bodyErrors, 401, 419, 422, 429, 503),
    },
    onRequest: (app) => [app.optionalViewer],
    // A sign-in without the page's CSRF token is refused (419) before its body is looked at.
    preValidation: async (request) => {
      checkCsrf(csrfHeader(request), request.cookies[XSRF_COOKIE], request.viewer);
    },
    handler: async ({ body: credentials, request, reply }, options) => {
      const previous = request.viewer?.sessionHash ?? null;
      const session = await options.authService.signIn(
        credentials,
        clientAddress(request),
        request.cookies[SESSION_COOKIE],
      );
      setSessionCookies(reply, options.config, session);
      // The replaced session's live sockets must not keep hearing its user's messages.
      if (previous) await endSessionSockets(request, options.onSessionEnded, previous);
      return { user: session.user };
    },
  }),
  defineRoute({
    method: 'post',
    path: paths.logout,
    operationId: 'logout',
    summary: 'Sign out: ends the session (or revokes the bearer token used)',
    description:
      'Ends the current session at once (its cookie is cleared and its live sockets closed), or, when called with a personal access token, revokes that token.',
    security: security.optionalViewer,
    responses: {
      204: { description: 'Signed out.' },
      ...errors(419, 503),
    },
    onRequest: (app) => [app.optionalViewer],
    handler: async ({ request, reply }, options) => {
      const { authService } = options;
      const viewer = request.viewer;
      // Signing out with a personal access token revokes that token.
      if (viewer?.tokenId != null && bearerToken(request)) {
        await authService.revokeToken(viewer.user.id, viewer.tokenId);
      } else if (viewer?.sessionHash) {
        checkCsrf(csrfHeader(request), request.cookies[XSRF_COOKIE], viewer);
        await authService.signOut(viewer.sessionHash);
        await endSessionSockets(request, options.onSessionEnded, viewer.sessionHash);
      }
      clearSessionCookie(reply, options.config);
      return reply.code(204).send();
    },
  }),
  defineRoute({
    method: 'post',
    path: paths.tokens,
    operationId: 'issueToken',
    summary: 'Issue a personal access token for a non-browser client',
    description:
      'For scripts and native apps that cannot keep a cookie: checks the e-mail address and password and answers a new personal access token, shown this once. Send it as `Authorization: Bearer …` (or as the `token` query parameter). Repeated failures are rate limited (429).',
    body: tokenRequestSchema,
    responses: {
      201: { description: 'The token (shown once; stored hashed).', schema: tokenResponseSchema },
      ...errors(...bodyErrors, 401, 422, 429, 503),
    },
    handler: async ({ body, request, reply }, { authService }) => {
      const token = await authService.issueToken(body, clientAddress(request));
      return reply.code(201).header('cache-control', 'no-store').send({ token });
    },
  }),
  defineRoute({
    method: 'get',
    path: paths.tokens,
    operationId: 'listTokens',
    summary: 'The caller’s personal access tokens (never their secrets)',
    description:
      'The signed-in user’s personal access tokens with their names and dates; the secrets themselves are never shown again.',
    security: security.viewerRead,
    responses: {
      200: { description: 'The tokens.', schema: tokenListResponseSchema },
      ...errors(401, 503),
    },
    onRequest: (app) => [app.requireViewer],
    handler: async ({ request }, { authService }) => ({
      tokens: await authService.listTokens(viewerOf(request).user.id),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: paths.token,
    operationId: 'revokeToken',
    summary: 'Revoke one of the caller’s personal access tokens',
    description:
      'Revokes one of the signed-in user’s own tokens at once; another user’s token, or an unknown id, is a 404.',
    security: security.viewerChange,
    params: tokenParamsSchema,
    responses: {
      204: { description: 'Revoked.' },
      ...errors(401, 404, 419, 422, 503),
    },
    onRequest: (app) => [app.requireViewer],
    handler: async ({ params, request, reply }, { authService }) => {
      await authService.revokeToken(viewerOf(request).user.id, params.id);
      return reply.code(204).send();
    },
  }),
  defineRoute({
    method: 'get',
    path: paths.demoAccounts,
    operationId: 'listDemoAccounts',
    summary: 'The demo accounts the sign-in page offers (demo mode only)',
    description:
      'Only when the server runs with its demo data (otherwise 404): the accounts the sign-in page offers as buttons. Their password is `password`.',
    responses: {
      200: { description: 'The demo accounts.', schema: demoAccountsResponseSchema },
      ...errors(404, 503),
    },
    handler: async (_call, options) => {
      const accounts = await options.demoAccounts();
      if (!accounts) throw notFound();
      return { accounts };
    },
  }),
]);
