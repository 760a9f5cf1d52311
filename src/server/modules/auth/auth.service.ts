import { credentialsSchema, type Credentials } from '../../../shared/api.js';
import type { AuthUser } from '../../../shared/models.js';
import { hashPassword, randomToken, safeEqual, sha256, verifyPassword } from '../../lib/crypto.js';
import { HttpError, tooManyRequests, unauthenticated } from '../../lib/http-error.js';
import { FailureThrottle } from '../../lib/rate-limiter.js';
import { nowIso } from '../../lib/time.js';
import type { AuthRepository } from './auth.repository.js';

const SESSION_LIFETIME_MS = 7 * 24 * 3600 * 1000;
const LOGIN_FAILURE_WINDOW_MS = 60_000;
/** Failures allowed per minute for one email from one client, and for one client over all emails. */
const FAILURES_PER_ACCOUNT = 5;
const FAILURES_PER_CLIENT = 50;

export interface Viewer {
  user: AuthUser;
  /** sha256 of the session cookie, when signed in through the browser session. */
  sessionHash: string | null;
  /** The session's CSRF token (session-authenticated requests only). */
  csrfToken: string | null;
}

export interface NewSession {
  user: AuthUser;
  /** The cookie value (never stored as is). */
  sessionId: string;
  csrfToken: string;
}

const INVALID_CREDENTIALS = 'These credentials do not match our records.';

export const createAuthService = (repository: AuthRepository) => {
  const accountThrottle = new FailureThrottle(FAILURES_PER_ACCOUNT, LOGIN_FAILURE_WINDOW_MS);
  const clientThrottle = new FailureThrottle(FAILURES_PER_CLIENT, LOGIN_FAILURE_WINDOW_MS);
  // A fixed hash so an unknown email costs the same time as a wrong password.
  const dummyHash = hashPassword(randomToken());

  const checkCredentials = async (input: Credentials, clientKey: string): Promise<AuthUser> => {
    const { email, password } = credentialsSchema.parse(input);
    const accountKey = `${email}|${clientKey}`;
    const wait = Math.max(
      accountThrottle.retryAfter(accountKey),
      clientThrottle.retryAfter(clientKey),
    );
    if (wait > 0) throw tooManyRequests(wait, 'Too many login attempts. Please try again later.');
    const user = await repository.findUserByEmail(email);
    const valid = await verifyPassword(password, user?.password_hash ?? (await dummyHash));
    if (!user || !valid) {
      accountThrottle.fail(accountKey);
      clientThrottle.fail(clientKey);
      throw unauthenticated(INVALID_CREDENTIALS);
    }
    accountThrottle.reset(accountKey);
    return { id: user.id, name: user.name, role: user.role };
  };

  return {
    /** Verifies credentials and opens a new session, replacing the previous one (session id rotation). */
    async signIn(
      input: Credentials,
      clientKey: string,
      previousSessionId?: string,
    ): Promise<NewSession> {
      const user = await checkCredentials(input, clientKey);
      const sessionId = randomToken();
      const csrfToken = randomToken(24);
      const now = Date.now();
      await repository.rotateSession(previousSessionId ? sha256(previousSessionId) : undefined, {
        id: sha256(sessionId),
        user_id: user.id,
        csrf_token: csrfToken,
        created_at: new Date(now).toISOString(),
        expires_at: new Date(now + SESSION_LIFETIME_MS).toISOString(),
      });
      return { user, sessionId, csrfToken };
    },

    async signOut(sessionHash: string): Promise<void> {
      await repository.deleteSession(sessionHash);
    },

    async issueToken(input: Credentials, clientKey: string): Promise<string> {
      const user = await checkCredentials(input, clientKey);
      const token = randomToken();
      await repository.insertToken(user.id, sha256(token), nowIso());
      return token;
    },

    async viewerFromSession(sessionId: string): Promise<Viewer | null> {
      const sessionHash = sha256(sessionId);
      const row = await repository.findSessionUser(sessionHash, nowIso());
      if (!row) return null;
      return {
        user: { id: row.id, name: row.name, role: row.role },
        sessionHash,
        csrfToken: row.csrf_token,
      };
    },

    async viewerFromToken(token: string): Promise<Viewer> {
      const user = await repository.findTokenUser(sha256(token));
      if (!user) throw unauthenticated('Invalid token.');
      return { user, sessionHash: null, csrfToken: null };
    },
  };
};

export type AuthService = ReturnType<typeof createAuthService>;

/**
 * CSRF rule of the contract: a session-authenticated state change (and every sign-in) must echo the
 * token, either the XSRF-TOKEN cookie's value (X-XSRF-TOKEN) or the page's meta value (X-CSRF-TOKEN).
 * With a session the token must be the session's; without one, header and cookie must agree.
 */
export const checkCsrf = (
  headerToken: string | undefined,
  cookieToken: string | undefined,
  viewer: Viewer | null,
) => {
  const expected = viewer?.csrfToken ?? cookieToken;
  if (!headerToken || !expected || !safeEqual(headerToken, expected)) {
    throw new HttpError(419, 'CSRF token mismatch.');
  }
};
