import type { LimitStore } from '../../lib/limit-store.js';
import type { ModuleBasics, ModuleLogger } from '../module-basics.js';
import { createMessengerRepository } from './messenger.repository.js';
import { createMessengerService, type MessengerServiceOptions } from './messenger.service.js';

/**
 * The messenger: conversations, sending, message changes. What other modules add to a new message,
 * an edit or a delete (notifications' tasks) and where a deleted message's files go (attachments)
 * come in as their services.
 */
export const createMessengerModule = ({
  config,
  db,
  limits,
  logger,
  ...parts
}: ModuleBasics & { limits: LimitStore; logger: ModuleLogger } & Pick<
    MessengerServiceOptions,
    'publisher' | 'presence' | 'events' | 'newMessageWork' | 'messageChangeWork' | 'storedFiles'
  >) =>
  createMessengerService({
    db: db.kysely,
    repository: createMessengerRepository(db),
    limits,
    sendRate: config.sendRate,
    editWindowMs: config.editWindowMs,
    onPublishError: (error) =>
      logger.warn({ err: error }, 'broadcast failed; the message is stored'),
    onStorageError: (error) =>
      logger.warn({ err: error }, 'a deleted message’s files stay until the sweep of orphans'),
    ...parts,
  });
