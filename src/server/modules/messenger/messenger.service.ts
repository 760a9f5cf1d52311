import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { LimitStore } from '../../lib/limit-store.js';
import type { Broadcaster } from '../../realtime/broadcaster-port.js';
import type { ModuleEventBus } from '../module-events.js';
import { createPublishToUser } from './channel-publish.js';
import { createConversationAccess, type Presence } from './conversation-access.js';
import { createConversationsService } from './conversations.service.js';
import {
  createMessageChangesService,
  type MessageChangeWork,
  type StoredFiles,
} from './message-changes.service.js';
import type { MessengerRepository } from './messenger.repository.js';
import {
  createSendingService,
  type NewMessageWork,
  type SendingServiceOptions,
} from './sending.service.js';

export { CONVERSATION_CLOSED } from './messenger-rules.js';
export type { GetMessageInput } from './conversations.service.js';
export type { MessageChangeWork, StoredFiles } from './message-changes.service.js';
export type { NewMessageWork, SendInput } from './sending.service.js';

export interface MessengerServiceOptions {
  /** The database: passed to each repository call, and where transactions start. */
  db: Kysely<Database>;
  repository: MessengerRepository;
  publisher: Broadcaster;
  limits: LimitStore;
  /** Token buckets: each user over all conversations, and each sender within one conversation. */
  sendRate: SendingServiceOptions['sendRate'];
  onPublishError: (error: unknown) => void;
  /** Who is online now (presence); whether each shows it is in the conversation rows. */
  presence: Presence;
  /** What other modules add to every new message, written in the message's own commit. */
  newMessageWork?: NewMessageWork;
  /** Told `messageStored` after each new message was stored and broadcast. */
  events?: Pick<ModuleEventBus, 'emit'>;
  /** How long after sending a message its sender may edit or delete it. */
  editWindowMs?: number;
  /** What other modules add to every edit and delete, written in its own commit. */
  messageChangeWork?: MessageChangeWork;
  /** Where a deleted message's files leave storage (attachments), after the delete's commit. */
  storedFiles?: StoredFiles;
  /** A deleted message's files could not be removed now (the sweep of orphaned bytes will). */
  onStorageError?: (error: unknown) => void;
}

/**
 * The messenger, as routes and other modules call it: one service per use case (conversations,
 * sending, message changes), each with its own repository slice, behind one interface.
 */
export const createMessengerService = ({
  db,
  repository,
  publisher,
  limits,
  sendRate,
  onPublishError,
  presence,
  newMessageWork,
  events,
  editWindowMs,
  messageChangeWork,
  storedFiles,
  onStorageError = onPublishError,
}: MessengerServiceOptions) => {
  const publish = createPublishToUser(publisher, onPublishError);
  const access = createConversationAccess({ db, repository: repository.conversations, presence });
  const { markSeenIn, ...changes } = createMessageChangesService({
    repository: repository.changes,
    access,
    publish,
    presence,
    ...(editWindowMs === undefined ? {} : { editWindowMs }),
    messageChangeWork,
    storedFiles,
    onStorageError,
  });
  const conversations = createConversationsService({
    db,
    repository: repository.conversations,
    access,
    markSeenIn,
  });
  const sending = createSendingService({
    db,
    repository: repository.send,
    access,
    publish,
    presence,
    limits,
    sendRate,
    newMessageWork,
    events,
    onPublishError,
  });
  // the calls of each use case (opening a conversation marks it seen through `markSeenIn`)
  return { ...conversations, ...sending, ...changes };
};

export type MessengerService = ReturnType<typeof createMessengerService>;
