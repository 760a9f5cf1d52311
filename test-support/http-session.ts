import { randomBytes } from 'node:crypto';
import { SESSION_COOKIE, XSRF_COOKIE } from '../src/server/plugins/auth.js';
import { paths } from '../src/shared/paths.js';
import { DEMO_PASSWORD } from './accounts.js';

/**
 * A user of a running server over HTTP, the way the page (session cookie + CSRF header) or an
 * API client (personal access token) talks to it.
 */

/** The APP_KEY a server has when nothing sets one (the server processes of the tests). */
export const DEFAULT_APP_KEY = 'local-app-key';

/** A messaging call's URL: every one carries the app key and an (empty) token parameter. */
export const withKey = (path: string, key: string = DEFAULT_APP_KEY): string =>
  `${path}${path.includes('?') ? '&' : '?'}key=${encodeURIComponent(key)}&token=`;

export type Call = (
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<Response>;

export interface HttpSession {
  userId: number;
  role: string;
  name: string;
  /** The Cookie header (session and XSRF-TOKEN); empty for a token session. */
  cookie: string;
  /** The X-XSRF-TOKEN header value; empty for a token session. */
  csrf: string;
  /** fetch with the app key and the session's credentials (a JSON body when one is given). */
  call: Call;
}

const keyedCall =
  (baseUrl: string, key: string, credentials: Record<string, string>): Call =>
  (method, path, body, headers = {}) =>
    fetch(`${baseUrl}${withKey(path, key)}`, {
      method,
      headers: {
        ...credentials,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

const cookieValue = (setCookies: string[], name: string): string | undefined => {
  for (const line of setCookies) {
    const [pair] = line.split(';');
    const [key, ...rest] = (pair ?? '').split('=');
    if (key?.trim() === name) return rest.join('=');
  }
  return undefined;
};

/** The session cookie's value in a Cookie header (to hand the session to a browser). */
export const sessionCookieOf = (cookie: string): string => {
  const match = new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=([^;]*)`).exec(cookie);
  if (!match?.[1]) throw new Error(`no ${SESSION_COOKIE} in the session cookie`);
  return match[1];
};

/**
 * POST /login as the sign-in page does: an XSRF-TOKEN cookie echoed in the X-XSRF-TOKEN header
 * (a made-up one unless `headers` brings a cookie and header of its own).
 */
export const postLogin = (
  baseUrl: string,
  credentials: { email: string; password?: string },
  headers: Record<string, string> = {},
): Promise<Response> => {
  const xsrf = randomBytes(18).toString('base64url');
  return fetch(`${baseUrl}${paths.login}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: `${XSRF_COOKIE}=${xsrf}`,
      'x-xsrf-token': xsrf,
      ...headers,
    },
    body: JSON.stringify({
      email: credentials.email,
      password: credentials.password ?? DEMO_PASSWORD,
    }),
  });
};

/** Signs in as a browser does and keeps the session cookie and the CSRF token it was given. */
export const signInOverHttp = async (
  baseUrl: string,
  email: string,
  options: { appKey?: string; password?: string } = {},
): Promise<HttpSession> => {
  const response = await postLogin(baseUrl, {
    email,
    ...(options.password === undefined ? {} : { password: options.password }),
  });
  if (response.status !== 200)
    throw new Error(`sign-in ${email}: ${response.status} ${await response.text()}`);
  const { user } = (await response.json()) as { user: { id: number; role: string; name: string } };
  return sessionFromSignIn(baseUrl, response, user, options.appKey);
};

/**
 * The session a sign-in answer opened (its session and XSRF-TOKEN cookies), for `user`: a
 * password sign-in's, or a sign-in link's (`GET /sso`, 303).
 */
export const sessionFromSignIn = (
  baseUrl: string,
  response: Response,
  user: { id: number; role: string; name: string },
  appKey: string = DEFAULT_APP_KEY,
): HttpSession => {
  const setCookies = response.headers.getSetCookie();
  const session = cookieValue(setCookies, SESSION_COOKIE);
  if (!session) throw new Error(`no ${SESSION_COOKIE} cookie in the sign-in answer`);
  const csrf = decodeURIComponent(cookieValue(setCookies, XSRF_COOKIE) ?? '');
  const cookie = `${SESSION_COOKIE}=${session}; ${XSRF_COOKIE}=${encodeURIComponent(csrf)}`;
  return {
    userId: user.id,
    role: user.role,
    name: user.name,
    cookie,
    csrf,
    call: keyedCall(baseUrl, appKey, { cookie, 'x-xsrf-token': csrf }),
  };
};

/** POST /logout with the session cookie and the CSRF header, as the page signs out. */
export const signOut = (
  baseUrl: string,
  session: Pick<HttpSession, 'cookie' | 'csrf'>,
): Promise<Response> =>
  fetch(`${baseUrl}${paths.logout}`, {
    method: 'POST',
    headers: { cookie: session.cookie, 'x-xsrf-token': session.csrf },
  });

/** POST /api/tokens: a personal access token for an account (no cookie, so no CSRF). */
export const requestToken = (
  baseUrl: string,
  body: { email: string; password?: string; name?: string },
): Promise<Response> =>
  fetch(`${baseUrl}${paths.tokens}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...body, password: body.password ?? DEMO_PASSWORD }),
  });

/** Messaging calls with a personal access token (Authorization: Bearer), as an API client makes them. */
export const tokenCall = (baseUrl: string, token: string, appKey: string = DEFAULT_APP_KEY): Call =>
  keyedCall(baseUrl, appKey, { authorization: `Bearer ${token}` });

/** Issues a token and returns a session that calls with it instead of the cookie. */
export const signInWithToken = async (
  baseUrl: string,
  email: string,
  options: { appKey?: string } = {},
): Promise<HttpSession & { token: string }> => {
  const response = await requestToken(baseUrl, { email });
  if (response.status !== 201)
    throw new Error(`token for ${email}: ${response.status} ${await response.text()}`);
  const { token } = (await response.json()) as { token: string };
  const browser = await signInOverHttp(baseUrl, email);
  return {
    ...browser,
    cookie: '',
    csrf: '',
    token,
    call: tokenCall(baseUrl, token, options.appKey),
  };
};

/** POST /broadcasting/auth the way the page does (form body, session cookie, CSRF header). */
export const authorizeOverHttp = (
  baseUrl: string,
  session: Pick<HttpSession, 'cookie' | 'csrf'>,
  socketId: string,
  channelName: string,
): Promise<Response> =>
  fetch(`${baseUrl}${paths.broadcastingAuth}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: session.cookie,
      'x-xsrf-token': session.csrf,
      accept: 'application/json',
    },
    body: new URLSearchParams({ socket_id: socketId, channel_name: channelName }).toString(),
  });
