import type { Kysely } from 'kysely';
import { credentialsSchema, type Credentials } from '../../../shared/auth.js';
import type { AuthUser } from '../../../shared/models.js';
import type { Database } from '../../db/schema.js';
import { hashPassword, randomToken, verifyPassword } from '../../lib/crypto.js';
import { tooManyRequests, unauthenticated } from '../../lib/http-error.js';
import type { LimitStore } from '../../lib/limit-store.js';
import type { AuthRepository } from './auth.repository.js';
import { viewerOfRow } from './auth-viewer.js';

/** An account's failures are remembered this long after the latest one (the backoff keeps growing). */
const ACCOUNT_FAILURE_MEMORY_MS = 24 * 3600 * 1000;
/** First lock once an account reaches its failure allowance; doubles with each further failure. */
const ACCOUNT_LOCK_BASE_MS = 30_000;
const ACCOUNT_LOCK_MAX_MS = 15 * 60_000;
/** An address's failures are counted over this window. */
const ADDRESS_WINDOW_MS = 15 * 60_000;
/** Past this many times its allowance, an address is refused before any password is checked. */
const ADDRESS_HARD_FACTOR = 10;

const INVALID_CREDENTIALS = 'These credentials do not match our records.';
const TOO_MANY_ATTEMPTS = 'Too many login attempts. Please try again later.';

/** How long an account is locked after its `failures`th failure in a row (0: not yet). */
export const accountLockMs = (failures: number, allowance: number): number => {
  if (failures < allowance) return 0;
  const doublings = Math.min(20, failures - allowance);
  return Math.min(ACCOUNT_LOCK_MAX_MS, ACCOUNT_LOCK_BASE_MS * 2 ** doublings);
};

export interface CredentialCheckParts {
  db: Kysely<Database>;
  repository: AuthRepository;
  limits: LimitStore;
  login: { failuresPerAccount: number; failuresPerAddress: number };
}

export type CheckCredentials = (input: Credentials, address: string) => Promise<AuthUser>;

/**
 * Sign-in throttling. Per account, whatever the address: after the allowance, each further failure
 * locks the account for twice as long (30 s … 15 min); a success clears it. Per address: past its
 * allowance, failures are answered 429 but a correct password still signs in, so one attacker
 * behind a shared address (an office, a proxy) does not lock out everyone else behind it; far past
 * it, the address is refused before any password check (scrypt costs CPU).
 */
export const createCredentialCheck = ({
  db,
  repository,
  limits,
  login,
}: CredentialCheckParts): CheckCredentials => {
  // A fixed hash so an unknown email costs the same time as a wrong password.
  const dummyHash = hashPassword(randomToken());

  return async (input, address) => {
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
};
