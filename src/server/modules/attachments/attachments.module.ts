import type { LimitStore } from '../../lib/limit-store.js';
import type { ModuleBasics } from '../module-basics.js';
import { createAttachmentStorage } from './attachment-storage.js';
import { createAttachmentsRepository } from './attachments.repository.js';
import { createAttachmentsService, type AttachmentsService } from './attachments.service.js';

/** Attachments, stored where STORAGE_URL says. */
export const createAttachmentsModule = ({
  config,
  db,
  limits,
}: ModuleBasics & { limits: LimitStore }): AttachmentsService =>
  createAttachmentsService({
    db: db.kysely,
    repository: createAttachmentsRepository(db),
    storage: createAttachmentStorage(config.storage.url, config.storage.credentials),
    limits,
  });
