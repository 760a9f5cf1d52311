import type { Db } from '../../db/database.js';
import { createSearchRepository } from './search.repository.js';
import { createSearchService, type SearchServiceOptions } from './search.service.js';

/** Searching the viewer's messages; each result's conversation as the messenger lists it. */
export const createSearchModule = ({
  db,
  messengerService,
}: { db: Db } & Pick<SearchServiceOptions, 'messengerService'>) =>
  createSearchService({ db: db.kysely, repository: createSearchRepository(db), messengerService });
