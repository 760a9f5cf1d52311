import { decodeJwt, jwtVerify } from 'jose';
import type { Kysely } from 'kysely';
import { localeSchema, type Locale, type UpsertUserBody } from '../../../shared/integration.js';
import type { AuthUser } from '../../../shared/models.js';
import { sameOriginPath } from '../../../shared/paths.js';
import {
  SSO_CLOCK_SKEW_SECONDS,
  SSO_MAX_LIFETIME_SECONDS,
  ssoClaimsSchema,
  type SsoClaims,
} from '../../../shared/sso.js';
import type { Database } from '../../db/schema.js';
import { HttpError } from '../../lib/http-error.js';
import type { AuthService, NewSession } from '../auth/auth.service.js';
import type { IntegrationService } from '../integration/integration.service.js';
import type { SsoRepository } from './sso.repository.js';

/** Where a link lands when it names no (acceptable) destination. */
export const SSO_DEFAULT_DESTINATION = '/messages';
/** Longer than any JWT a host needs to send; longer tokens are refused unread. */
const MAX_TOKEN_LENGTH = 8192;
/**
 * Used `jti`s are kept this long past the moment their link stopped being acceptable, so that an
 * instance whose clock runs behind another's can never meet a link whose `jti` was already forgotten.
 */
const PURGE_MARGIN_MS = 3600_000;
const PROFILE_CLAIMS = ['role', 'name', 'email', 'image_url', 'locale'] as const;

/** A sign-in link that opens no session; `reason` is for the log, never for the visitor. */
export class SsoRefused extends Error {
  constructor(readonly reason: string) {
    super(`sign-in link refused: ${reason}`);
    this.name = 'SsoRefused';
  }
}

export interface SsoServiceOptions {
  db: Kysely<Database>;
  repository: SsoRepository;
  /** SSO_SECRET (≥ 32 bytes). */
  secret: string;
  authService: Pick<AuthService, 'openSession' | 'viewerFromSession'>;
  integrationService: Pick<IntegrationService, 'upsertUser'>;
  /** The clock (tests). */
  now?: () => Date;
}

export interface SsoSignIn {
  session: NewSession;
  /** A same-origin path (percent-encoded) to send the browser to. */
  destination: string;
  /** The hash of the session this sign-in replaced, whose live sockets must be closed. */
  replacedSessionHash: string | null;
}

/**
 * `next` as a path on this site, normalised (percent-encoded, fit for a Location header), or the
 * default destination.
 */
export const ssoDestination = (next: string | undefined): string =>
  sameOriginPath(next) ?? SSO_DEFAULT_DESTINATION;

/** The `locale` a link asks for, read without checking anything (only to word a refusal). */
export const ssoLinkLocale = (token: string | undefined): Locale | undefined => {
  if (!token || token.length > MAX_TOKEN_LENGTH) return undefined;
  try {
    const parsed = localeSchema.safeParse(decodeJwt(token).locale);
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
};

/**
 * Where a refused link opened in a frame goes instead of the refusal page (which may not be
 * framed): its `next` (the claim, read without checking anything, else the parameter) when that is
 * an embedded page, `/messages?embed=…`, which then reports `signin-required` to the host; else
 * undefined (the refusal page, as at top level). No session is set either way.
 */
export const refusedFrameDestination = (
  token: string | undefined,
  next: string | undefined,
): string | undefined => {
  let claimed: unknown;
  if (token && token.length <= MAX_TOKEN_LENGTH) {
    try {
      claimed = decodeJwt(token).next;
    } catch {
      claimed = undefined;
    }
  }
  const path = sameOriginPath(typeof claimed === 'string' ? claimed : next);
  if (!path) return undefined;
  const url = new URL(path, 'http://same-origin.invalid');
  return url.pathname === SSO_DEFAULT_DESTINATION && url.searchParams.has('embed')
    ? path
    : undefined;
};

const describe = (error: unknown): string =>
  error instanceof Error
    ? `${(error as { code?: string }).code ?? error.name}: ${error.message}`
    : 'unreadable';

/**
 * Sign-in links made by the host site: an HS256 JWT
 * signed with SSO_SECRET naming the user by external id, living at most 10 minutes, usable once.
 * The profile claims create the user on first sign-in or update them; the sign-in then opens a new
 * session exactly like the password sign-in (the previous session is replaced).
 */
export const createSsoService = (options: SsoServiceOptions) => {
  const { db, repository, authService, integrationService } = options;
  const key = new TextEncoder().encode(options.secret);
  const clock = options.now ?? (() => new Date());

  const verify = async (token: string, now: Date): Promise<SsoClaims> => {
    if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) throw new SsoRefused('no token');
    let payload: unknown;
    try {
      ({ payload } = await jwtVerify(token, key, {
        algorithms: ['HS256'],
        clockTolerance: SSO_CLOCK_SKEW_SECONDS,
        requiredClaims: ['sub', 'exp', 'jti', 'iat'],
        // Also refuses an `iat` in the future (beyond the skew).
        maxTokenAge: SSO_MAX_LIFETIME_SECONDS,
        currentDate: now,
      }));
    } catch (error) {
      throw new SsoRefused(describe(error));
    }
    const parsed = ssoClaimsSchema.safeParse(payload);
    if (!parsed.success)
      throw new SsoRefused(
        `claims: ${parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ')}`,
      );
    return parsed.data;
  };

  /** The user the link names, created or updated from its profile claims. */
  const userOf = async (claims: SsoClaims): Promise<AuthUser> => {
    const existing = await repository.findUserByExternalId(db, claims.sub);
    if (existing?.erased_at) throw new SsoRefused('the user was erased');
    const role = claims.role ?? existing?.role;
    const name = claims.name ?? existing?.name;
    if (!role || !name) throw new SsoRefused('unknown user, and the link has no role and name');
    const hasProfile = PROFILE_CLAIMS.some((claim) => claims[claim] !== undefined);
    if (existing && !hasProfile)
      return {
        id: existing.id,
        name: existing.name,
        role: existing.role,
        suspended: existing.suspended_at !== null,
      };
    const body: UpsertUserBody = {
      role,
      name,
      ...(claims.email === undefined ? {} : { email: claims.email }),
      ...(claims.image_url === undefined ? {} : { image_url: claims.image_url }),
      ...(claims.locale === undefined ? {} : { locale: claims.locale }),
    };
    try {
      const { user } = await integrationService.upsertUser(claims.sub, body);
      return { id: user.id, name: user.name, role: user.role, suspended: user.suspended };
    } catch (error) {
      // An erased user, a role change of a user with conversations, an e-mail of another user.
      if (error instanceof HttpError) throw new SsoRefused(`profile: ${error.message}`);
      throw error;
    }
  };

  return {
    /**
     * Checks a sign-in link and opens a session for its user. `next` is the query parameter (the
     * link's own `next` claim wins); `previousSessionId` the browser's session cookie, if any.
     * Throws `SsoRefused` for any link that must not sign anyone in.
     */
    async signIn(
      token: string | undefined,
      next: string | undefined,
      previousSessionId: string | undefined,
    ): Promise<SsoSignIn> {
      const now = clock();
      const claims = await verify(token ?? '', now);
      // Once: the jti is spent before anything else, so two racing uses cannot both get further.
      // It is kept until its link can no longer be accepted (exp plus the allowed skew), and then some.
      await repository.purgeUsedTokens(db, new Date(now.getTime() - PURGE_MARGIN_MS).toISOString());
      const acceptableUntil = new Date((claims.exp + SSO_CLOCK_SKEW_SECONDS) * 1000).toISOString();
      if (!(await repository.useToken(db, claims.jti, acceptableUntil)))
        throw new SsoRefused('the link was already used (jti)');
      const user = await userOf(claims);
      const previous = previousSessionId
        ? await authService.viewerFromSession(previousSessionId)
        : null;
      const session = await authService.openSession(user, previousSessionId);
      return {
        session,
        destination: ssoDestination(claims.next ?? next),
        replacedSessionHash: previous?.sessionHash ?? null,
      };
    },
  };
};

export type SsoService = ReturnType<typeof createSsoService>;
