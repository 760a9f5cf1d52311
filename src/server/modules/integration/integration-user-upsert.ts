import type { Kysely } from 'kysely';
import type { IntegrationUser, UpsertUserBody } from '../../../shared/integration.js';
import type { Role } from '../../../shared/models.js';
import { retryOnUniqueViolation } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { HttpError, validationFailed } from '../../lib/http-error.js';
import { nowIso } from '../../lib/time.js';
import type { ModuleEventBus } from '../module-events.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { IntegrationRepository, IntegrationUserRow } from './integration.repository.js';
import { presentUser } from './integration-users.js';

export interface UserUpsertParts {
  db: Kysely<Database>;
  repository: IntegrationRepository;
  /** Writes the `settings` of a user upsert (inside its transaction). */
  settingsService: SettingsService;
  /** Told `userChanged`: requests must not go on seeing the old name, role or credentials. */
  events: Pick<ModuleEventBus, 'emit'>;
}

const isCompanySide = (role: Role) => role === 'company' || role === 'owner';

const conflict = (message: string) => new HttpError(409, message);

/** Creates or updates a user by external id; `created` tells 201 from 200. */
export const upsertIntegrationUser = async (
  { db, repository, settingsService, events }: UserUpsertParts,
  externalId: string,
  body: UpsertUserBody,
): Promise<{ created: boolean; user: IntegrationUser }> => {
  const outcome = await retryOnUniqueViolation(() =>
    db.transaction().execute(async (trx) => {
      const existing = await repository.findUserByExternalId(trx, externalId);
      if (existing?.erased_at) throw conflict('This user was erased and cannot be brought back.');
      if (body.email) {
        const holder = await repository.emailTakenBy(trx, body.email);
        // by external id: a concurrent twin of this call may have just created it
        if (holder && holder.external_id !== externalId)
          throw validationFailed('email', 'The email belongs to another user.');
      }
      if (existing && existing.role !== body.role) {
        if (await repository.hasConversations(trx, existing.id))
          throw conflict('The role of a user who has conversations cannot change.');
      }
      // A company's picture is its logo: the list and the header show that for companies.
      const picture = body.image_url;
      const pictureColumns =
        picture === undefined
          ? {}
          : isCompanySide(body.role)
            ? { image_url: picture, logo: picture }
            : { image_url: picture, logo: null };
      let row: IntegrationUserRow;
      if (existing) {
        row = await repository.updateUser(trx, existing.id, {
          role: body.role,
          name: body.name,
          ...(body.email === undefined ? {} : { email: body.email }),
          ...(body.locale === undefined ? {} : { locale: body.locale }),
          ...pictureColumns,
          // suspended since the first suspension (a repeated `true` keeps that moment)
          ...(body.suspended === undefined
            ? {}
            : { suspended_at: body.suspended ? (existing.suspended_at ?? nowIso()) : null }),
        });
      } else {
        row = await repository.insertUser(trx, {
          role: body.role,
          name: body.name,
          email: body.email ?? null,
          password_hash: null,
          image_url: null,
          logo: null,
          ...pictureColumns,
          created_at: nowIso(),
          external_id: externalId,
          locale: body.locale ?? null,
          erased_at: null,
          suspended_at: body.suspended ? nowIso() : null,
        });
      }
      const settings = body.settings
        ? await settingsService.updateSettingsIn(trx, row.id, body.settings)
        : undefined;
      return { created: !existing, user: presentUser(row), userId: row.id, settings };
    }),
  );
  // Committed: requests signed in as this user see the new name and role.
  if (!outcome.created) await events.emit('userChanged', { userId: outcome.userId });
  // Online partners see the user appear or vanish, as when they switch it themselves.
  if (outcome.settings && body.settings?.show_online !== undefined)
    await settingsService.showOnlineChanged(outcome.userId, outcome.settings.show_online);
  return { created: outcome.created, user: outcome.user };
};
