import type { IntegrationUser } from '../../../shared/integration.js';
import type { Role } from '../../../shared/models.js';
import type { Executor } from '../../db/database.js';
import { validationFailed } from '../../lib/http-error.js';
import type { IntegrationRepository, IntegrationUserRow } from './integration.repository.js';

/** A user row as the integration API answers it (by the host's id). */
export const presentUser = (row: IntegrationUserRow): IntegrationUser => ({
  id: row.id,
  external_id: row.external_id ?? '',
  role: row.role,
  name: row.name,
  email: row.email,
  image_url: row.image_url ?? row.logo,
  locale: row.locale,
  suspended: row.suspended_at !== null,
});

/** A live (not erased) user of the host by external id, or a 422 naming the field. */
export const findLiveUser = async (
  repository: IntegrationRepository,
  executor: Executor,
  field: string,
  externalId: string,
  roles: readonly Role[],
): Promise<IntegrationUserRow> => {
  const user = await repository.findUserByExternalId(executor, externalId);
  if (!user || user.erased_at !== null)
    throw validationFailed(field, `The ${field} is not a known user.`);
  if (!roles.includes(user.role))
    throw validationFailed(field, `The ${field} must be a ${roles.join(' or ')}.`);
  return user;
};
