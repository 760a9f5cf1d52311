import type { LimitStore } from '../../lib/limit-store.js';
import type { ModuleBasics, OnRedisError } from '../module-basics.js';
import { createAuthRepository } from './auth.repository.js';
import { createAuthService, type CachedCredential } from './auth.service.js';
import { createCredentialCache } from './credential-cache.js';

/** A remembered session or token is read again at least this often (invalidation does the rest). */
const CREDENTIAL_CACHE_LIFETIME_MS = 30_000;
const CREDENTIAL_CACHE_MAX_ENTRIES = 50_000;

/**
 * Sign-in, sessions and tokens. Who each session or token is, is remembered between requests and
 * forgotten on every instance (through Redis) when it ends or its user changes.
 */
export const createAuthModule = ({
  config,
  db,
  limits,
  onRedisError,
}: ModuleBasics & { limits: LimitStore; onRedisError: OnRedisError }) => {
  const credentials = createCredentialCache<CachedCredential>({
    lifetimeMs: CREDENTIAL_CACHE_LIFETIME_MS,
    maxEntries: CREDENTIAL_CACHE_MAX_ENTRIES,
    redisUrl: config.redisUrl,
    channel: `auth:${config.pusher.appId}:forget`,
    onError: onRedisError,
  });
  const service = createAuthService({
    db: db.kysely,
    repository: createAuthRepository(db),
    limits,
    login: config.login,
    tokens: config.tokens,
    credentials,
  });
  return { service, close: () => credentials.close() };
};
