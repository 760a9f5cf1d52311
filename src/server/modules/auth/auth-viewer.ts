import type { AuthUser } from '../../../shared/models.js';

export interface Viewer {
  user: AuthUser;
  /** sha256 of the session cookie, when signed in through the browser session. */
  sessionHash: string | null;
  /** The session's CSRF token (session-authenticated requests only). */
  csrfToken: string | null;
  /** The personal access token's id, when signed in with one. */
  tokenId: number | null;
}

/** A credential as remembered between requests: its viewer, and a token's last recorded use. */
export interface CachedCredential {
  viewer: Viewer;
  /** Tokens: when `last_used_at` was last written (ms), so the cache does not hide uses. */
  lastUsedAt: number;
}

/** Who a user row signs in as (a suspended user signs in and reads; their writes are refused). */
export const viewerOfRow = (
  row: Pick<AuthUser, 'id' | 'name' | 'role'> & { suspended_at: string | null },
): AuthUser => ({
  id: row.id,
  name: row.name,
  role: row.role,
  suspended: row.suspended_at !== null,
});
