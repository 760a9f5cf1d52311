import type { Kysely } from 'kysely';
import type { Credentials } from '../../../shared/auth.js';
import type { AuthUser } from '../../../shared/models.js';
import type { Database } from '../../db/schema.js';
import { randomToken, safeEqual, sha256 } from '../../lib/crypto.js';
import { HttpError } from '../../lib/http-error.js';
import type { LimitStore } from '../../lib/limit-store.js';
import type { AuthRepository } from './auth.repository.js';
import { viewerOfRow, type CachedCredential, type Viewer } from './auth-viewer.js';
import type { CredentialCache } from './credential-cache.js';
import { createPersonalAccessTokens } from './personal-access-tokens.js';
import { createCredentialCheck } from './sign-in-throttle.js';

export type { CachedCredential, Viewer } from './auth-viewer.js';
export { TOKEN_PREFIX, type TokenSummary } from './personal-access-tokens.js';
export { accountLockMs } from './sign-in-throttle.js';

/** How long a session lasts (the cookie's max-age says the same). */
export const SESSION_LIFETIME_SECONDS = 7 * 24 * 3600;

export interface NewSession {
  user: AuthUser;
  /** The cookie value (never stored as is). */
  sessionId: string;
  csrfToken: string;
}

export interface AuthServiceOptions {
  /** The database: passed to each repository call, and where transactions start. */
  db: Kysely<Database>;
  repository: AuthRepository;
  limits: LimitStore;
  login: { failuresPerAccount: number; failuresPerAddress: number };
  tokens: { ttlDays: number; perUser: number };
  /** Who a session or token belongs to, remembered across requests (invalidated by `forgetUser`). */
  credentials?: CredentialCache<CachedCredential>;
}

export const createAuthService = ({
  db,
  repository,
  limits,
  login,
  tokens,
  credentials,
}: AuthServiceOptions) => {
  /** Sign-in throttling per account and per address (sign-in-throttle.ts). */
  const checkCredentials = createCredentialCheck({ db, repository, limits, login });

  /** A new session for `user`; the previous one (if any) is replaced in one transaction: the id rotates. */
  const openSession = async (user: AuthUser, previousSessionId?: string): Promise<NewSession> => {
    const sessionId = randomToken();
    const csrfToken = randomToken(24);
    const now = Date.now();
    const replaced = await db.transaction().execute(async (trx) => {
      const previous = previousSessionId
        ? await repository.deleteSession(trx, sha256(previousSessionId))
        : undefined;
      await repository.insertSession(trx, {
        id: sha256(sessionId),
        user_id: user.id,
        csrf_token: csrfToken,
        created_at: new Date(now).toISOString(),
        expires_at: new Date(now + SESSION_LIFETIME_SECONDS * 1000).toISOString(),
      });
      return previous;
    });
    if (replaced) await forgetUser(replaced.user_id);
    return { user, sessionId, csrfToken };
  };

  /** Every remembered credential of the user is read again from the database on its next use. */
  const forgetUser = async (userId: number): Promise<void> => {
    await credentials?.forgetUser(userId);
  };

  const accessTokens = createPersonalAccessTokens({
    db,
    repository,
    tokens,
    credentials,
    checkCredentials,
    forgetUser,
  });

  return {
    /** Verifies credentials and opens a new session, replacing the previous one (session id rotation). */
    async signIn(
      input: Credentials,
      address: string,
      previousSessionId?: string,
    ): Promise<NewSession> {
      const user = await checkCredentials(input, address);
      return openSession(user, previousSessionId);
    },

    /**
     * Opens a session for a user already known to be who they say (a sign-in link, `/sso`),
     * replacing the previous one like `signIn`.
     */
    openSession,

    async signOut(sessionHash: string): Promise<void> {
      const ended = await repository.deleteSession(db, sessionHash);
      if (ended) await forgetUser(ended.user_id);
    },

    /** A user's sessions, tokens, name or role changed elsewhere (erasure, the integration API). */
    forgetUser,

    /** Personal access tokens (personal-access-tokens.ts). */
    issueToken: accessTokens.issueToken,
    listTokens: accessTokens.listTokens,
    revokeToken: accessTokens.revokeToken,
    revokeAllTokens: accessTokens.revokeAllTokens,

    async viewerFromSession(sessionId: string): Promise<Viewer | null> {
      const sessionHash = sha256(sessionId);
      const key = `session:${sessionHash}`;
      const now = Date.now();
      const cached = credentials?.get(key, now);
      if (cached) return cached.viewer;
      const readSince = credentials?.generation() ?? 0;
      const row = await repository.findSessionUser(db, sessionHash, new Date(now).toISOString());
      if (!row) return null;
      const viewer: Viewer = {
        user: viewerOfRow(row),
        sessionHash,
        csrfToken: row.csrf_token,
        tokenId: null,
      };
      credentials?.set(
        key,
        row.id,
        { viewer, lastUsedAt: now },
        Date.parse(row.expires_at),
        readSince,
      );
      return viewer;
    },

    viewerFromToken: accessTokens.viewerFromToken,
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
