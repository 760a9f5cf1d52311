import type { Kysely } from 'kysely';
import { DELETED_USER_NAME } from '../../../shared/models.js';
import type { Database } from '../../db/schema.js';
import { notFound } from '../../lib/http-error.js';
import { nowIso } from '../../lib/time.js';
import type { ModuleEventBus } from '../module-events.js';
import type { IntegrationRepository } from './integration.repository.js';

/** The key under which every live socket of a user is also bound (erasure closes them all). */
export const userSocketsKey = (userId: number): string => `user:${userId}`;

export interface ErasureParts {
  db: Kysely<Database>;
  repository: IntegrationRepository;
  /** Told `userChanged`: requests must not go on seeing the old name, role or credentials. */
  events: Pick<ModuleEventBus, 'emit'>;
  /** Closes (4009) the live sockets bound to these keys, on every instance. */
  closeSockets: (keys: string[]) => Promise<void>;
  onCloseSocketsError: (error: unknown) => void;
}

/**
 * Erasure: sessions, tokens and settings deleted and personal data removed in one transaction,
 * then every live socket of the user closed (on every instance). Erasing again changes nothing.
 */
export const eraseIntegrationUser = async (
  parts: ErasureParts,
  externalId: string,
): Promise<void> => {
  const { db, repository, events } = parts;
  const erased = await db.transaction().execute(async (trx) => {
    const user = await repository.findUserByExternalId(trx, externalId);
    if (!user) throw notFound('User not found.');
    if (user.erased_at !== null) return null;
    const sessions = await repository.eraseUser(trx, user.id, DELETED_USER_NAME, nowIso());
    return { userId: user.id, sessions };
  });
  if (!erased) return;
  await events.emit('userChanged', { userId: erased.userId });
  await parts
    .closeSockets([userSocketsKey(erased.userId), ...erased.sessions])
    .catch(parts.onCloseSocketsError);
};
