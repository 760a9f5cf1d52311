import type { Db } from '../../db/database.js';
import type { ModuleLogger } from '../module-basics.js';
import { createSafetyRepository } from './safety.repository.js';
import { createSafetyService, type SafetyServiceOptions } from './safety.service.js';

/** Blocks and reports; the host's webhook of each report rides in its commit. */
export const createSafetyModule = ({
  db,
  logger,
  ...services
}: { db: Db; logger: ModuleLogger } & Pick<SafetyServiceOptions, 'presence' | 'notifications'>) =>
  createSafetyService({
    db: db.kysely,
    repository: createSafetyRepository(db),
    onPublishError: (error) =>
      logger.warn({ err: error }, 'presence of a blocked pair not told; the block is stored'),
    ...services,
  });
