import type { Kysely } from 'kysely';
import { tokenRequestSchema, type TokenRequest } from '../../../shared/auth.js';
import type { Database } from '../../db/schema.js';
import { randomToken, sha256 } from '../../lib/crypto.js';
import { notFound, unauthenticated, validationFailed } from '../../lib/http-error.js';
import { nowIso } from '../../lib/time.js';
import type { AuthRepository } from './auth.repository.js';
import { viewerOfRow, type CachedCredential, type Viewer } from './auth-viewer.js';
import type { CredentialCache } from './credential-cache.js';
import type { CheckCredentials } from './sign-in-throttle.js';

/** Personal access tokens carry a recognisable prefix, so that secret scanners can find leaked ones. */
export const TOKEN_PREFIX = 'jbm_pat_';
/** How often a token's last use is written (it is read on every request). */
const TOKEN_TOUCH_INTERVAL_MS = 60_000;

export interface TokenSummary {
  id: number;
  name: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string;
}

export interface PersonalAccessTokenParts {
  db: Kysely<Database>;
  repository: AuthRepository;
  tokens: { ttlDays: number; perUser: number };
  credentials?: CredentialCache<CachedCredential>;
  /** Issuing a token takes the user's credentials, throttled like a sign-in. */
  checkCredentials: CheckCredentials;
  /** Every remembered credential of the user is read again from the database on its next use. */
  forgetUser: (userId: number) => Promise<void>;
}

/** Personal access tokens: issued, listed, revoked, and who a request's token signs in as. */
export const createPersonalAccessTokens = ({
  db,
  repository,
  tokens,
  credentials,
  checkCredentials,
  forgetUser,
}: PersonalAccessTokenParts) => ({
  /** A new personal access token (the secret is returned once, stored hashed), valid `ttlDays`. */
  issueToken: async (input: TokenRequest, address: string): Promise<string> => {
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

  listTokens: async (userId: number): Promise<TokenSummary[]> => {
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
  revokeToken: async (userId: number, tokenId: number): Promise<void> => {
    if ((await repository.deleteToken(db, userId, tokenId)) === 0)
      throw notFound('Token not found.');
    await forgetUser(userId);
  },

  /** Revokes every token of a user (password change, erasure). */
  revokeAllTokens: async (userId: number): Promise<void> => {
    await repository.deleteAllTokens(db, userId);
    await forgetUser(userId);
  },

  viewerFromToken: async (token: string): Promise<Viewer> => {
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
});
