import type { Db } from '../../db/database.js';
import { createTemplatesRepository } from './templates.repository.js';
import { createTemplatesService } from './templates.service.js';

/** Saved replies: each user's own, alone. */
export const createTemplatesModule = ({ db }: { db: Db }) =>
  createTemplatesService({ db: db.kysely, repository: createTemplatesRepository(db) });
