import {
  credentialsSchema,
  tokenRequestSchema,
  type Credentials,
  type TokenRequest,
} from '../../../shared/auth.js';
import type { Kysely } from 'kysely';
import type { AuthUser } from '../../../shared/models.js';
import type { Database } from '../../db/schema.js';
import { hashPassword, randomToken, safeEqual, sha256, verifyPassword } from '../../lib/crypto.js';
import {
  HttpError,
  notFound,
  tooManyRequests,
  unauthenticated,
  validationFailed,
} from '../../lib/http-error.js';
import type { LimitStore } from '../../lib/limit-store.js';
import { nowIso } from '../../lib/time.js';
import type { AuthRepository } from './auth.repository.js';
import type { CredentialCache } from './credential-cache.js';

/** How long a session lasts (the cookie's max-age says the same). */
export const SESSION_LIFETIME_SECONDS = 7 * 24 * 3600;
/** An account's failures are remembered this long after the latest one (the backoff keeps growing). */
const ACCOUNT_FAILURE_MEMORY_MS = 24 * 3600 * 1000;
/** First lock once an account reaches its failure allowance; doubles with each further failure. */
const ACCOUNT_LOCK_BASE_MS = 30_000;
const ACCOUNT_LOCK_MAX_MS = 15 * 60_000;
/** An address's failures are counted over this window. */
const ADDRESS_WINDOW_MS = 15 * 60_000;
/** Past this many times its allowance, an address is refused before any password is checked. */
const ADDRESS_HARD_FACTOR = 10;
/** Personal access tokens carry a recognisable prefix, so that secret scanners can find leaked ones. */
export const TOKEN_PREFIX = 'jbm_pat_';
/** How often a token's last use is written (it is read on every request). */
const TOKEN_TOUCH_INTERVAL_MS = 60_000;

export interface Viewer {
  user: AuthUser;
  /** sha256 of the session cookie, when signed in through the browser session. */
  sessionHash: string | null;
  /** The session's CSRF token (session-authenticated requests only). */
  csrfToken: string | null;
  /** The personal access token's id, when signed in with one. */
  tokenId: number | null;
}

export interface NewSession {
  user: AuthUser;
  /** The cookie value (never stored as is). */
  sessionId: string;
  csrfToken: string;
}

export interface TokenSummary {
  id: number;
  name: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string;
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

/** A credential as remembered between requests: its viewer, and a token's last recorded use. */
export interface CachedCredential {
  viewer: Viewer;
  /** Tokens: when `last_used_at` was last written (ms), so the cache does not hide uses. */
  lastUsedAt: number;
}

/** How long an account is locked after its `failures`th failure in a row (0: not yet). */
export const accountLockMs = (failures: number, allowance: number): number => {
  if (failures < allowance) return 0;
  const doublings = Math.min(20, failures - allowance);
  return Math.min(ACCOUNT_LOCK_MAX_MS, ACCOUNT_LOCK_BASE_MS * 2 ** doublings);
};

/** Who a user row signs in as (a suspended user signs in and reads; their writes are refused). */
const viewerOfRow = (
  row: Pick<AuthUser, 'id' | 'name' | 'role'> & { suspended_at: string | null },
): AuthUser => ({
  id: row.id,
  name: row.name,
  role: row.role,
  suspended: row.suspended_at !== null,
});

const INVALID_CREDENTIALS = 'These credentials do not match our records.';
const TOO_MANY_ATTEMPTS = 'Too many login attempts. Please try again later.';

export const createAuthService = ({
  db,
  repository,
  limits,
  login,
  tokens,
  credentials,
}: AuthServiceOptions) => {
  // A fixed hash so an unknown email costs the same time as a wrong password.
  const dummyHash = hashPassword(randomToken());

  /**
   * Sign-in throttling. Per account, whatever the address: after the allowance, each further failure
   * locks the account for twice as long (30 s … 15 min); a success clears it. Per address: past its
   * allowance, failures are answered 429 but a correct password still signs in, so one attacker
   * behind a shared address (an office, a proxy) does not lock out everyone else behind it; far past
   * it, the address is refused before any password check (scrypt costs CPU).
   */
  const checkCredentials = async (input: Credentials, address: string): Promise<AuthUser> => {
    const { email, password } = credentialsSchema.parse(input);
    const accountKey = `login:account:${email}`;
    const addressKey = `login:address:${address}`;
    const [accountWaitMs, addressFailures] = await Promise.all([
      limits.blockedFor(accountKey),
      limits.failures(addressKey),
    ]);
    if (accountWaitMs > 0) throw tooManyRequests(accountWaitMs / 1000, TOO_MANY_ATTEMPTS);
    if (addressFailures >= login.failuresPerAddress * ADDRESS_HARD_FACTOR)
      throw tooManyRequests(ADDRESS_WINDOW_MS / 1000, TOO_MANY_ATTEMPTS);

    const user = await repository.findUserByEmail(db, email);
    const valid = await verifyPassword(password, user?.password_hash ?? (await dummyHash));
    if (user && valid) {
      await limits.reset(accountKey);
      return viewerOfRow(user);
    }
    const [accountFailures, addressCount] = await Promise.all([
      limits.addFailure(accountKey, ACCOUNT_FAILURE_MEMORY_MS),
      limits.addFailure(addressKey, ADDRESS_WINDOW_MS),
    ]);
    const lockMs = accountLockMs(accountFailures, login.failuresPerAccount);
    if (lockMs > 0) await limits.block(accountKey, lockMs);
    if (addressCount > login.failuresPerAddress)
      throw tooManyRequests(ADDRESS_WINDOW_MS / 1000, TOO_MANY_ATTEMPTS);
    throw unauthenticated(INVALID_CREDENTIALS);
  };

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

    /** A new personal access token (the secret is returned once, stored hashed), valid `ttlDays`. */
    async issueToken(input: TokenRequest, address: string): Promise<string> {
      const request = tokenRequestSchema.parse(input);
      const user = await checkCredentials(request, address);
      const token = `${TOKEN_PREFIX}${randomToken()}`;
      const now = Date.now();
      const nowText = new Date(now).toISOString();
      // One transaction: expired tokens go, and the cap counts what is left (on PostgreSQL two
      // racing requests may end one over the cap; the next issue is refused).
      const stored = await db.transaction().execute(async (trx) => {
        await repository.deleteExpiredTokens(trx, user.id, nowText);
        if ((await repository.countTokens(trx, user.id)) >= tokens.perUser) return false;
        await repository.insertToken(trx, {
          user_id: user.id,
          token_hash: sha256(token),
          name: request.name ?? 'API token',
          created_at: nowText,
          expires_at: new Date(now + tokens.ttlDays * 24 * 3600 * 1000).toISOString(),
          last_used_at: null,
        });
        return true;
      });
      if (!stored)
        throw validationFailed(
          'token',
          `You already have ${tokens.perUser} tokens: revoke one (DELETE /api/tokens/{id}) first.`,
        );
      return token;
    },

    async listTokens(userId: number): Promise<TokenSummary[]> {
      const rows = await repository.listTokens(db, userId, nowIso());
      return rows.map((row) => ({
        id: row.id,
        name: row.name ?? 'API token',
        created_at: row.created_at,
        last_used_at: row.last_used_at,
        expires_at: row.expires_at ?? row.created_at,
      }));
    },

    /** Revokes one of the user's tokens; 404 when it is not theirs (or unknown). */
    async revokeToken(userId: number, tokenId: number): Promise<void> {
      if ((await repository.deleteToken(db, userId, tokenId)) === 0)
        throw notFound('Token not found.');
      await forgetUser(userId);
    },

    /** Revokes every token of a user (password change, erasure). */
    async revokeAllTokens(userId: number): Promise<void> {
      await repository.deleteAllTokens(db, userId);
      await forgetUser(userId);
    },

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

    async viewerFromToken(token: string): Promise<Viewer> {
      const key = `token:${sha256(token)}`;
      const now = Date.now();
      const touch = async (tokenId: number, lastUsedAt: number): Promise<number> => {
        if (now - lastUsedAt < TOKEN_TOUCH_INTERVAL_MS) return lastUsedAt;
        await repository.touchToken(db, tokenId, new Date(now).toISOString());
        return now;
      };
      const cached = credentials?.get(key, now);
      if (cached) {
        cached.lastUsedAt = await touch(cached.viewer.tokenId ?? 0, cached.lastUsedAt);
        return cached.viewer;
      }
      const readSince = credentials?.generation() ?? 0;
      const row = await repository.findTokenUser(
        db,
        key.slice('token:'.length),
        new Date(now).toISOString(),
      );
      if (!row) throw unauthenticated('Invalid token.');
      const lastUsedAt = await touch(
        row.token_id,
        row.last_used_at ? Date.parse(row.last_used_at) : 0,
      );
      const viewer: Viewer = {
        user: viewerOfRow(row),
        sessionHash: null,
        csrfToken: null,
        tokenId: row.token_id,
      };
      credentials?.set(
        key,
        row.id,
        { viewer, lastUsedAt },
        row.expires_at ? Date.parse(row.expires_at) : now,
        readSince,
      );
      return viewer;
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
