import type { Db } from '../../db/database.js';
import { createWriteBatcher } from '../../db/write-batcher.js';
import { createConversationsRepository } from './conversations.repository.js';
import { createMessageChangesRepository } from './message-changes.repository.js';
import { createSendRepository } from './send.repository.js';

/**
 * The messenger's SQL, one slice per use case: the conversations (lists, paging, archive, one
 * conversation and its history), the send, and the changes to messages sent (seen, edit, delete).
 * Built once per database. The send and the changes share one write batcher: on SQLite, sends and
 * marks seen of the same moment share one commit (ADR 014).
 */
export const createMessengerRepository = (db: Db) => {
  const writes = createWriteBatcher(db.kysely, db.dialect);
  return {
    conversations: createConversationsRepository(db),
    send: createSendRepository(db, writes),
    changes: createMessageChangesRepository(db, writes),
  };
};

export type MessengerRepository = ReturnType<typeof createMessengerRepository>;
