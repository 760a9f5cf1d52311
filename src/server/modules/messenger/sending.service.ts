import type { Kysely } from 'kysely';
import type { SendMessageResponse } from '../../../shared/messages.js';
import {
  CHAT_MESSAGE_EVENT,
  type ChatMessageEvent,
  TYPING_EVENT,
  type TypingEvent,
} from '../../../shared/events.js';
import type { AuthUser, Chat } from '../../../shared/models.js';
import { isUniqueViolation } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import {
  forbidden,
  HttpError,
  notFound,
  tooManyRequests,
  validationFailed,
} from '../../lib/http-error.js';
import type { LimitStore } from '../../lib/limit-store.js';
import { nowIso } from '../../lib/time.js';
import type { NewOutboxTask } from '../../outbox/outbox.js';
import type { ConversationHostIds } from '../../read-model/chat.presenter.js';
import type { ChatRowWithSender } from '../../read-model/chat.repository.js';
import type { ModuleEventBus } from '../module-events.js';
import type { PublishToUser } from './channel-publish.js';
import type { ConversationAccess, Presence } from './conversation-access.js';
import type { ConversationRow } from './conversation-query.repository.js';
import {
  otherPartyId,
  presentChat,
  presentConversation,
  previewOfMessage,
  type AttachmentRow,
} from './messenger.presenter.js';
import {
  conversationClosed,
  otherSideOf,
  refuseWriteOf,
  showsReceipts,
  sideOf,
} from './messenger-rules.js';
import type { SendRepository } from './send.repository.js';

/**
 * A port other modules fill (notifications: the e-mail rule, the host's webhook): the durable work a
 * new message brings, as outbox tasks that exist exactly when the message does.
 */
export interface NewMessageWork {
  outboxTasksFor(
    chat: ChatRowWithSender,
    files: readonly AttachmentRow[],
    /** The message's conversation as the send read it (the host's ids of its parties and job). */
    conversation: ConversationHostIds,
  ): readonly NewOutboxTask[];
}

export interface SendInput {
  receiver_id: number;
  messenger_user: number;
  job_id: number | null;
  message: string;
  client_id?: string | undefined;
  /** The sender's own unused uploads to send with the message. */
  attachment_ids?: number[] | undefined;
}

/** At most one `Typing` broadcast this often per conversation and typist, seconds. */
const TYPING_EVERY_S = 2;

/** A new message as stored, with its files and the conversation as the send left it. */
interface StoredSend {
  chat: ChatRowWithSender;
  files: readonly AttachmentRow[];
  /** The conversation as the send left it. */
  conversation: ConversationRow;
}

/**
 * What the send answers when the conversation as read does not allow it: 404 (none), 403 (someone
 * else's, or the viewer may not write toward the other party), 422 (closed, another receiver or job).
 */
function checkConversation(
  viewer: AuthUser,
  input: SendInput,
  row: ConversationRow | undefined,
): asserts row is ConversationRow {
  if (!row) throw notFound('Conversation not found.');
  if (row[sideOf(viewer).party] !== viewer.id) throw forbidden();
  refuseWriteOf(viewer, row);
  if (row.candidate_erased_at !== null || row.company_erased_at !== null)
    throw conversationClosed();
  if (row[otherSideOf(viewer).party] !== input.receiver_id)
    throw validationFailed(
      'receiver_id',
      'The receiver_id is not the other party of this conversation.',
    );
  if (row.job_id !== input.job_id)
    throw validationFailed('job_id', 'The job_id does not match this conversation.');
}

/** 422 unless every file asked for was the sender's own and not yet sent (`claimed` of them were). */
const checkFiles = (input: SendInput, claimed: number): void => {
  if (claimed !== (input.attachment_ids ?? []).length)
    throw validationFailed('attachment_ids', 'Only your own files not yet sent can be attached.');
};

/** The new message's row, as the send writes it (without its id: the database gives it). */
const unsentChat = (
  viewer: AuthUser,
  input: SendInput,
  createdAt: string,
): Omit<ChatRowWithSender, 'id'> => ({
  sender_id: viewer.id,
  receiver_id: input.receiver_id,
  job_id: input.job_id,
  messenger_user_id: input.messenger_user,
  message: input.message,
  client_id: input.client_id ?? null,
  created_at: createdAt,
  seen_at: null,
  seen_privately: 0,
  edited_at: null,
  deleted_at: null,
  sender_name: viewer.name,
});

export interface SendingServiceOptions {
  /** The database: passed to each repository call outside a transaction. */
  db: Kysely<Database>;
  repository: SendRepository;
  access: Pick<ConversationAccess, 'ownConversation'>;
  publish: PublishToUser;
  presence: Presence;
  limits: LimitStore;
  /** Token buckets: each user over all conversations, and each sender within one conversation. */
  sendRate: {
    perUser: { burst: number; perSecond: number };
    perConversation: { burst: number; perSecond: number };
  };
  /** What other modules add to every new message, written in the message's own commit. */
  newMessageWork?: NewMessageWork | undefined;
  /** Told `messageStored` after each new message was stored and broadcast. */
  events?: Pick<ModuleEventBus, 'emit'> | undefined;
  onPublishError: (error: unknown) => void;
}

/**
 * A send's writes, all or nothing: the service opens the transaction (or, at once, the one
 * statement) through the repository and runs its SQL steps in order, deciding everything in between.
 */
const createSendStore = ({
  db,
  repository,
  newMessageWork,
}: Pick<SendingServiceOptions, 'db' | 'repository' | 'newMessageWork'>) => {
  /** The durable work the new message brings (outbox tasks), written in its own commit. */
  const tasksFor = (
    chat: ChatRowWithSender,
    files: readonly AttachmentRow[],
    conversation: ConversationRow,
  ): readonly NewOutboxTask[] => newMessageWork?.outboxTasksFor(chat, files, conversation) ?? [];

  /**
   * PostgreSQL without files: one read (the conversation, and the id the message will have, taken
   * from its sequence now), then every write in one statement: no transaction, no waiting in between.
   * Undefined: since the read a party was erased, the sender suspended or blocked by the receiver,
   * and nothing was written.
   */
  const storeAtOnce = async (
    viewer: AuthUser,
    input: SendInput,
  ): Promise<StoredSend | undefined> => {
    const read = await repository.findConversationForSend(db, input.messenger_user);
    checkConversation(viewer, input, read);
    const { next_chat_id: chatId, ...conversation } = read;
    const chat = { id: chatId, ...unsentChat(viewer, input, nowIso()) };
    const updated = await repository.writeSendAtOnce(db, {
      chat,
      receiverSide: otherSideOf(viewer),
      preview: previewOfMessage(input.message, []),
      tasks: tasksFor(chat, [], conversation),
    });
    return updated && { chat, files: [], conversation: { ...conversation, ...updated } };
  };

  /**
   * Any other send: read, then write, in one transaction (on SQLite, sharing its commit): the
   * message (and its words in the search index), its files, the conversation's preview, time,
   * receiver's unread count and archive flags, and its outbox tasks.
   */
  const storeInTransaction = (viewer: AuthUser, input: SendInput): Promise<StoredSend> =>
    repository.inWriteTransaction(async (trx) => {
      const conversation = await repository.findConversation(trx, input.messenger_user);
      checkConversation(viewer, input, conversation);
      const unsent = unsentChat(viewer, input, nowIso());
      const id = await repository.insertChat(trx, unsent);
      const files = await repository.claimAttachments(
        trx,
        input.attachment_ids ?? [],
        viewer.id,
        id,
      );
      checkFiles(input, files.length);
      const updated = await repository.recordSend(
        trx,
        otherSideOf(viewer),
        conversation.id,
        previewOfMessage(
          input.message,
          files.map((file) => file.name),
        ),
        unsent.created_at,
      );
      const chat = { id, ...unsent };
      await repository.writeTasks(trx, tasksFor(chat, files, conversation), unsent.created_at);
      return { chat, files, conversation: { ...conversation, ...updated } };
    });

  /**
   * A send's writes, all or nothing (the repository says which way: PostgreSQL without files at
   * once, otherwise in one transaction). Undefined: a party was erased between the read and the
   * write, and nothing was written.
   */
  const storeSend = (viewer: AuthUser, input: SendInput): Promise<StoredSend | undefined> =>
    repository.writesAtOnce((input.attachment_ids ?? []).length)
      ? storeAtOnce(viewer, input)
      : storeInTransaction(viewer, input);

  return storeSend;
};

/**
 * What the composer does: the send (stored with everything it changes in one commit, then
 * broadcast) and the typing signal.
 */
export const createSendingService = ({
  db,
  repository,
  access: { ownConversation },
  publish,
  presence,
  limits,
  sendRate,
  newMessageWork,
  events,
  onPublishError,
}: SendingServiceOptions) => {
  const storeSend = createSendStore({ db, repository, newMessageWork });
  /** 0 when the viewer may send in this conversation now, else the seconds to wait. */
  const sendWait = async (viewer: AuthUser, conversationId: number): Promise<number> => {
    const { perUser, perConversation } = sendRate;
    const waits = await Promise.all([
      limits.take(`send:user:${viewer.id}`, perUser.burst, perUser.perSecond),
      limits.take(
        `send:conversation:${conversationId}:${viewer.id}`,
        perConversation.burst,
        perConversation.perSecond,
      ),
    ]);
    return Math.max(...waits);
  };

  /**
   * The new message as stored, or (a replay) the message stored before under the same client_id,
   * without its conversation. A client_id is not looked up first: its unique index refuses the
   * insert. The first attempt's message also answers a retry refused for what changed since (the
   * conversation closed, a file expired) when only the first answer was lost.
   */
  const storeOrReplay = async (
    viewer: AuthUser,
    input: SendInput,
  ): Promise<Omit<StoredSend, 'conversation'> & { conversation?: ConversationRow }> => {
    try {
      const stored = await storeSend(viewer, input);
      if (!stored) {
        // Between the read and the write a party was erased, the sender suspended or blocked by
        // the receiver: nothing was written. Said as the read would say it now.
        refuseWriteOf(viewer, await ownConversation(viewer, input.messenger_user));
        throw conversationClosed();
      }
      return stored;
    } catch (error) {
      if (!input.client_id || !(isUniqueViolation(error) || error instanceof HttpError))
        throw error;
      const existing = await repository
        .findChatByClientId(db, viewer.id, input.client_id)
        .catch(() => undefined);
      if (!existing) throw error;
      return { chat: existing, files: await repository.attachmentsOfChats(db, [existing.id]) };
    }
  };

  return {
    /**
     * Stores the message with everything it changes in one commit, then broadcasts it. The
     * sender's `SEND_RATE_*` limits apply, except to a message the host sends as them
     * (`fromHost`: the integration API keeps its own limit per key).
     */
    async send(
      viewer: AuthUser,
      input: SendInput,
      socketId?: string,
      { fromHost = false }: { fromHost?: boolean } = {},
    ): Promise<SendMessageResponse> {
      const wait = fromHost ? 0 : await sendWait(viewer, input.messenger_user);
      if (wait > 0) throw tooManyRequests(wait, 'Too many messages. Please slow down.');
      const stored = await storeOrReplay(viewer, input);
      if (stored.chat.messenger_user_id !== input.messenger_user) {
        throw new HttpError(422, 'The client_id was already used for another conversation.', {
          client_id: ['The client_id was already used for another conversation.'],
        });
      }
      // A new message: the conversation as the send's own update left it; a replay: read it again.
      const side = sideOf(viewer);
      const conversation =
        stored.conversation ?? (await ownConversation(viewer, stored.chat.messenger_user_id));
      // a replay shows the message as it is now, as the sender may see it (a new one is unseen)
      const viewerHidesReceipts = !showsReceipts(conversation, side.party);
      const message: Chat = presentChat(stored.chat, stored.files, viewer.id, viewerHidesReceipts);
      // each party's view shows whether the other one is online
      const online = await presence.onlineAmong([message.receiver_id, message.sender_id]);
      const messengerUser = presentConversation(conversation, side, online);
      if (stored.conversation) {
        // One event per channel, each with the conversation as that channel's owner sees it.
        const channelEvents: [number, ChatMessageEvent][] = [
          [
            message.receiver_id,
            {
              chatMessage: message,
              messengerUser: presentConversation(conversation, otherSideOf(viewer), online),
            },
          ],
          [message.sender_id, { chatMessage: message, messengerUser }],
        ];
        await Promise.all(
          channelEvents.map(([userId, event]) =>
            publish(userId, CHAT_MESSAGE_EVENT, event, socketId),
          ),
        );
        // the message is stored and sent: what others do with the news cannot fail the send
        await events
          ?.emit('messageStored', {
            messageId: message.id,
            conversationId: message.messenger_user_id,
          })
          .catch(onPublishError);
      }
      return { message, messengerUser };
    },

    /**
     * The viewer is typing: `Typing` to the other party, at most once every 2 s per conversation
     * and typist (over every instance when the limits live in Redis); calls in between change nothing.
     */
    async typing(viewer: AuthUser, conversationId: number): Promise<void> {
      const row = await ownConversation(viewer, conversationId);
      refuseWriteOf(viewer, row);
      if (row.candidate_erased_at !== null || row.company_erased_at !== null) return;
      const wait = await limits.take(
        `typing:${conversationId}:${viewer.id}`,
        1,
        1 / TYPING_EVERY_S,
      );
      if (wait > 0) return;
      const event: TypingEvent = { messenger_user_id: conversationId, user_id: viewer.id };
      await publish(otherPartyId(row, sideOf(viewer)), TYPING_EVENT, event);
    },
  };
};

export type SendingService = ReturnType<typeof createSendingService>;
