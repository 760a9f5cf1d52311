import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import { safeEqual } from '../lib/crypto.js';
import { HttpError, unauthenticated } from '../lib/http-error.js';
import {
  checkCsrf,
  SESSION_LIFETIME_SECONDS,
  type AuthService,
  type Viewer,
} from '../modules/auth/auth.service.js';

export const SESSION_COOKIE = 'messenger_session';
export const XSRF_COOKIE = 'XSRF-TOKEN';

declare module 'fastify' {
  interface FastifyRequest {
    viewer: Viewer | null;
  }
  interface FastifyInstance {
    /** 401 unless the `key` query parameter is the application key. */
    requireAppKey: onRequestHookHandler;
    /** Resolves the viewer (token or session) or answers 401; enforces CSRF for cookie-authenticated changes. */
    requireViewer: onRequestHookHandler;
    /** Resolves the viewer when there is one; never fails. */
    optionalViewer: onRequestHookHandler;
  }
  interface FastifyContextConfig {
    /** A GET that changes state still needs the CSRF header (the contract's unseen call). */
    csrfOnGet?: boolean;
  }
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const queryValue = (request: FastifyRequest, name: string): string | undefined => {
  const value = (request.query as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
};

export const bearerToken = (request: FastifyRequest): string | undefined => {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice('Bearer '.length).trim() || undefined;
  return queryValue(request, 'token') || undefined;
};

export const csrfHeader = (request: FastifyRequest): string | undefined => {
  const xsrf = request.headers['x-xsrf-token'];
  const csrf = request.headers['x-csrf-token'];
  const value = (Array.isArray(xsrf) ? xsrf[0] : xsrf) ?? (Array.isArray(csrf) ? csrf[0] : csrf);
  if (!value) return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined; // a malformed escape is no token at all: 419, not 500
  }
};

/**
 * A response to a frame on another site (`sec-fetch-dest: iframe`, `sec-fetch-site: cross-site`)
 * while embedding is on (`EMBED_ORIGINS`): its cookies are partitioned (CHIPS, ADR 022), the one
 * kind a browser blocking third-party cookies keeps for a frame of another site. Top-level pages,
 * and frames on a page of the same site (which get first-party cookies anyway; a second, partitioned
 * cookie of the same name would leave the browser sending two), keep their Lax cookies.
 */
export const isFramed = (request: FastifyRequest, config: Config): boolean =>
  config.embedOrigins.length > 0 &&
  request.headers['sec-fetch-dest'] === 'iframe' &&
  request.headers['sec-fetch-site'] === 'cross-site';

/** The attributes of a frame's cookies (`isFramed`). */
export const PARTITIONED_COOKIE = {
  path: '/',
  sameSite: 'none',
  secure: true,
  partitioned: true,
} as const;

/**
 * The cookies' attributes for the response `reply` answers: Lax (secure under https), or in a
 * frame `SameSite=None; Secure; Partitioned` (Secure even over http: browsers accept it from
 * localhost and 127.0.0.1, the only http origins embedding allows).
 */
const cookieAttributes = (reply: FastifyReply, config: Config) =>
  isFramed(reply.request, config)
    ? PARTITIONED_COOKIE
    : ({ path: '/', sameSite: 'lax', secure: config.secureCookies } as const);

export const sessionCookieOptions = (reply: FastifyReply, config: Config) =>
  ({ ...cookieAttributes(reply, config), httpOnly: true }) as const;

/** The XSRF-TOKEN cookie is readable by scripts (axios / our client echo it back in a header). */
export const setXsrfCookie = (reply: FastifyReply, config: Config, token: string) =>
  reply.setCookie(XSRF_COOKIE, token, { ...cookieAttributes(reply, config), httpOnly: false });

/**
 * Hands a new session to the browser: the httpOnly session cookie and the session's XSRF token
 * (partitioned when the response goes to a frame).
 */
export const setSessionCookies = (
  reply: FastifyReply,
  config: Config,
  session: { sessionId: string; csrfToken: string },
) => {
  reply.setCookie(SESSION_COOKIE, session.sessionId, {
    ...sessionCookieOptions(reply, config),
    maxAge: SESSION_LIFETIME_SECONDS,
  });
  setXsrfCookie(reply, config, session.csrfToken);
};

/**
 * Removes the session cookie the browser holds for this response's context. While embedding is on, a
 * sign-out from inside a frame (a fetch, so not itself `isFramed`) also removes the frame's
 * partitioned copy: the browser applies it to the partition the request came from, and ignores it
 * where there is none.
 */
export const clearSessionCookie = (reply: FastifyReply, config: Config) => {
  reply.clearCookie(SESSION_COOKIE, sessionCookieOptions(reply, config));
  if (config.embedOrigins.length > 0 && !isFramed(reply.request, config))
    void reply.header(
      'set-cookie',
      reply.server.serializeCookie(SESSION_COOKIE, '', {
        ...PARTITIONED_COOKIE,
        httpOnly: true,
        expires: new Date(0),
        maxAge: 0,
      }),
    );
};

/**
 * Closes the live sockets of a session that is gone for good (signed out, or replaced by a new
 * sign-in): they can never be authorized again. This can fail only for sockets on other instances
 * while Redis is down; those hear nothing meanwhile and are made to reconnect (and are refused)
 * once the fan-out is back, so a failure is logged, not answered.
 */
export const endSessionSockets = async (
  request: FastifyRequest,
  onSessionEnded: (sessionHash: string) => Promise<void>,
  sessionHash: string,
) => {
  await onSessionEnded(sessionHash).catch((error: unknown) => {
    request.log.warn({ err: error }, 'could not close the session’s sockets on every instance');
  });
};

export const authPlugin = fp(
  async (app: FastifyInstance, options: { config: Config; authService: AuthService }) => {
    const { config, authService } = options;
    app.decorateRequest('viewer', null);

    const resolveViewer = async (request: FastifyRequest): Promise<Viewer | null> => {
      const token = bearerToken(request);
      if (token) return authService.viewerFromToken(token);
      const sessionId = request.cookies[SESSION_COOKIE];
      return sessionId ? authService.viewerFromSession(sessionId) : null;
    };

    app.decorate('requireAppKey', async (request: FastifyRequest) => {
      const key = queryValue(request, 'key');
      if (!key || !safeEqual(key, config.appKey))
        throw new HttpError(401, 'Invalid application key.');
    });

    app.decorate('optionalViewer', async (request: FastifyRequest) => {
      try {
        request.viewer = await resolveViewer(request);
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        request.viewer = null;
      }
    });

    app.decorate('requireViewer', async (request: FastifyRequest) => {
      const viewer = await resolveViewer(request);
      if (!viewer) throw unauthenticated();
      request.viewer = viewer;
      const needsCsrf =
        UNSAFE_METHODS.has(request.method) || request.routeOptions.config.csrfOnGet === true;
      if (viewer.sessionHash && needsCsrf)
        checkCsrf(csrfHeader(request), request.cookies[XSRF_COOKIE], viewer);
    });
  },
  { name: 'auth', dependencies: ['@fastify/cookie'] },
);

/** The viewer of a route guarded by `requireViewer`. */
export const viewerOf = (request: FastifyRequest): Viewer => {
  if (!request.viewer) throw unauthenticated();
  return request.viewer;
};
