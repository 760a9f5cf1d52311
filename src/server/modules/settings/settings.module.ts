import type { Db } from '../../db/database.js';
import { createSettingsRepository } from './settings.repository.js';
import { createSettingsService, type SettingsServiceOptions } from './settings.service.js';

/** Each user's settings (e-mails, read receipts, online status, language and time zone). */
export const createSettingsModule = ({
  db,
  events,
}: { db: Db } & Pick<SettingsServiceOptions, 'events'>) =>
  createSettingsService({ db: db.kysely, repository: createSettingsRepository(db), events });
