import type {
  GetMessageResponse,
  InitialDataQuery,
  InitialDataResponse,
  SendMessageResponse,
} from '../../../shared/api.js';
import type { Kysely, Transaction } from 'kysely';
import { PAGE_LIMIT_DEFAULT } from '../../../shared/api.js';
import {
  CHAT_MESSAGE_EVENT,
  userChannelName,
  type ChatMessageEvent,
  MESSAGES_SEEN_EVENT,
  MESSAGE_UPDATED_EVENT,
  type MessageUpdatedEvent,
  TYPING_EVENT,
  type TypingEvent,
  type MessagesSeenEvent,
} from '../../../shared/events.js';
import type { AuthUser, Chat, MessengerUser } from '../../../shared/models.js';
import { BLOCKED_MESSAGE, SUSPENDED_MESSAGE } from '../../../shared/safety.js';
import { hasVisibleText } from '../../../shared/text.js';
import {
  EDIT_WINDOW_PASSED_MESSAGE,
  type EditMessageResponse,
} from '../../../shared/working-faster.js';
import {
  forbidden,
  HttpError,
  notFound,
  tooManyRequests,
  validationFailed,
} from '../../lib/http-error.js';
import { isUniqueViolation } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { LimitStore } from '../../lib/limit-store.js';
import { nowIso } from '../../lib/time.js';
import type { NewOutboxTask } from '../../outbox/outbox.js';
import {
  CANDIDATE_SIDE,
  type ChatRowWithSender,
  COMPANY_SIDE,
  type ConversationRow,
  type ListFilter,
  type MessengerRepository,
  type SendToStore,
  type Side,
  type StoredSend,
} from './messenger.repository.js';
import {
  blockedBy,
  groupByDate,
  otherPartyId,
  presentChat,
  presentConversation,
  presentJob,
  previewOfMessage,
  type AttachmentRow,
} from './messenger.presenter.js';
import type { ConversationHostIds } from '../../read-model/chat.presenter.js';
import type { Broadcaster } from '../../realtime/broadcaster-port.js';
import type { ModuleEventBus } from '../module-events.js';
import { END_OF_TIME, decodeListCursor, encodeListCursor, momentAfter } from './list-cursor.js';

/** Whether that party of the conversation has `read_receipts` on (receipts work both ways). */
const showsReceipts = (
  conversation: Pick<ConversationRow, 'candidate_read_receipts' | 'company_read_receipts'>,
  party: Side['party'],
): boolean =>
  (party === 'candidate_id'
    ? conversation.candidate_read_receipts
    : conversation.company_read_receipts) !== 0;

export interface MessengerServiceOptions {
  /** The database: passed to each repository call, and where transactions start. */
  db: Kysely<Database>;
  repository: MessengerRepository;
  publisher: Broadcaster;
  limits: LimitStore;
  /** Token buckets: each user over all conversations, and each sender within one conversation. */
  sendRate: {
    perUser: { burst: number; perSecond: number };
    perConversation: { burst: number; perSecond: number };
  };
  onPublishError: (error: unknown) => void;
  /** Who is online now (presence); whether each shows it is in the conversation rows. */
  presence: { onlineAmong(ids: readonly number[]): Promise<ReadonlySet<number>> };
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
 * A port other modules fill (notifications: the host's webhooks): the durable work an edit or a
 * delete brings, as outbox tasks that exist exactly when the change does.
 */
export interface MessageChangeWork {
  outboxTasksForChange(
    type: 'message.updated' | 'message.deleted',
    chat: ChatRowWithSender,
    files: readonly AttachmentRow[],
    /** The message's conversation as read (the host's ids of its parties and job). */
    conversation: ConversationHostIds,
  ): readonly NewOutboxTask[];
}

/** A port the attachments module fills: removes the bytes of files whose rows are gone. */
export interface StoredFiles {
  removeStoredFiles(
    files: readonly { storage_key: string; thumbnail_key: string | null }[],
  ): Promise<void>;
}

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

export interface GetMessageInput {
  receiver_id: number;
  job_id: number | null;
  before?: number | undefined;
  limit?: number | undefined;
}

const sideOf = (viewer: Pick<AuthUser, 'role'>): Side =>
  viewer.role === 'candidate' ? CANDIDATE_SIDE : COMPANY_SIDE;
const otherSideOf = (viewer: AuthUser): Side =>
  viewer.role === 'candidate' ? COMPANY_SIDE : CANDIDATE_SIDE;

const PUBLISH_TIME_LIMIT_MS = 2000;
/** At most one `Typing` broadcast this often per conversation and typist, seconds. */
const TYPING_EVERY_S = 2;

/** A send to (or from) a conversation whose other party was erased. */
export const CONVERSATION_CLOSED =
  'This conversation is closed: the other person’s account was deleted.';
const conversationClosed = () =>
  new HttpError(422, CONVERSATION_CLOSED, { message: [CONVERSATION_CLOSED] });

/**
 * What the viewer may not write toward the other party, on the conversation as read: a suspended
 * viewer sends, types and uploads nothing (403 saying so); a viewer the other party blocked is told
 * only that the other party is not accepting their messages.
 */
const refuseWriteOf = (viewer: AuthUser, row: ConversationRow): void => {
  const side = sideOf(viewer);
  const suspendedAt =
    side.party === 'candidate_id' ? row.candidate_suspended_at : row.company_suspended_at;
  if (suspendedAt !== null) throw forbidden(SUSPENDED_MESSAGE);
  if (blockedBy(row, otherSideOf(viewer).party)) throw forbidden(BLOCKED_MESSAGE);
};

const withTimeLimit = <T>(work: Promise<T>, ms: number): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
};

const editWindowPassed = () =>
  new HttpError(422, EDIT_WINDOW_PASSED_MESSAGE, { message: [EDIT_WINDOW_PASSED_MESSAGE] });

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
  editWindowMs = 0,
  messageChangeWork,
  storedFiles,
  onStorageError = onPublishError,
}: MessengerServiceOptions) => {
  /** Tells one user's channel; the change is stored, so a stalled broadcaster delays, never fails, it. */
  const publish = <E extends object>(
    userId: number,
    name: string,
    event: E,
    socketId?: string,
  ): Promise<void> =>
    withTimeLimit(
      publisher.publish([userChannelName(userId)], name, event, socketId),
      PUBLISH_TIME_LIMIT_MS,
    ).catch(onPublishError);

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

  /** The viewer's conversation, or 404 (none) / 403 (someone else's). */
  const ownConversation = async (viewer: AuthUser, id: number): Promise<ConversationRow> => {
    const row = await repository.findConversation(db, id);
    if (!row) throw notFound('Conversation not found.');
    if (row[sideOf(viewer).party] !== viewer.id) throw forbidden();
    return row;
  };

  /**
   * Marks the viewer's unread messages of the conversation seen, then tells the sender
   * (`MessagesSeen`), unless the viewer keeps their reading to themselves (`read_receipts` off) or
   * the sender does (read receipts work both ways: whoever hides theirs sees nobody's).
   */
  const markSeenIn = async (viewer: AuthUser, conversation: ConversationRow) => {
    const side = sideOf(viewer);
    const seenAt = nowIso();
    const readerShowsReceipts = showsReceipts(conversation, side.party);
    // recorded with the messages: switching receipts on later reveals nothing read meanwhile
    const lastSeenId = await repository.inWriteTransaction((trx) =>
      repository.markSeen(trx, conversation.id, viewer.id, side, seenAt, !readerShowsReceipts),
    );
    const senderShowsReceipts = showsReceipts(
      conversation,
      side.party === 'candidate_id' ? 'company_id' : 'candidate_id',
    );
    if (lastSeenId === null || !readerShowsReceipts || !senderShowsReceipts) return;
    // nothing of a blocked reader reaches the party who blocked them
    if (blockedBy(conversation, otherSideOf(viewer).party)) return;
    const event: MessagesSeenEvent = {
      messenger_user_id: conversation.id,
      reader_id: viewer.id,
      seen_at: seenAt,
      last_seen_id: lastSeenId,
    };
    await publish(otherPartyId(conversation, side), MESSAGES_SEEN_EVENT, event);
  };

  /** Who among the other parties of these conversations is online now. */
  const onlineOthers = (rows: readonly ConversationRow[], side: Side) =>
    presence.onlineAmong(rows.map((row) => otherPartyId(row, side)));

  /** The send as the repository stores it, with the rules it must pass on the rows as read. */
  const sendToStore = (viewer: AuthUser, input: SendInput): SendToStore => {
    const side = sideOf(viewer);
    const receiverSide = otherSideOf(viewer);
    return {
      conversationId: input.messenger_user,
      senderId: viewer.id,
      senderName: viewer.name,
      receiverId: input.receiver_id,
      receiverSide,
      jobId: input.job_id,
      message: input.message,
      clientId: input.client_id ?? null,
      attachmentIds: input.attachment_ids ?? [],
      check: {
        conversation(row) {
          if (!row) throw notFound('Conversation not found.');
          if (row[side.party] !== viewer.id) throw forbidden();
          refuseWriteOf(viewer, row);
          if (row.candidate_erased_at !== null || row.company_erased_at !== null)
            throw conversationClosed();
          if (row[receiverSide.party] !== input.receiver_id)
            throw validationFailed(
              'receiver_id',
              'The receiver_id is not the other party of this conversation.',
            );
          if (row.job_id !== input.job_id)
            throw validationFailed('job_id', 'The job_id does not match this conversation.');
        },
        files(claimed) {
          if (claimed !== (input.attachment_ids ?? []).length)
            throw validationFailed(
              'attachment_ids',
              'Only your own files not yet sent can be attached.',
            );
        },
      },
      preview: (fileNames) => previewOfMessage(input.message, fileNames),
      tasksFor: (chat, files, conversation) =>
        newMessageWork?.outboxTasksFor(chat, files, conversation) ?? [],
    };
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
      const stored = await repository.storeSend(sendToStore(viewer, input));
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

  const present = async (viewer: AuthUser, id: number): Promise<MessengerUser> => {
    const row = await ownConversation(viewer, id);
    return presentConversation(row, sideOf(viewer), await onlineOthers([row], sideOf(viewer)));
  };

  /**
   * The viewer's own message and its conversation, locked for the rest of `trx`: 404 for a message
   * that is not in one of the viewer's conversations, 403 for the other party's; `checkWindow`
   * answers 422 once the edit window has passed or the message is deleted.
   */
  const changeableMessage = async (
    trx: Transaction<Database>,
    viewer: AuthUser,
    id: number,
    now: string,
  ) => {
    const locked = await repository.lockMessage(trx, id);
    if (!locked || (locked.chat.sender_id !== viewer.id && locked.chat.receiver_id !== viewer.id))
      throw notFound('Message not found.');
    if (locked.chat.sender_id !== viewer.id) throw forbidden();
    return {
      ...locked,
      /** 422 unless the message can still change (checked after the 403s the caller adds). */
      checkWindow: () => {
        const { chat } = locked;
        if (
          chat.deleted_at !== null ||
          Date.parse(now) - Date.parse(chat.created_at) > editWindowMs
        )
          throw editWindowPassed();
      },
    };
  };

  /**
   * After an edit or a delete's commit: `MessageUpdated` to both parties' channels (the request's
   * socket excluded), each with the conversation as that party sees it; nothing reaches a party who
   * blocked the sender. The sender's view is the answer.
   */
  const broadcastChange = async (
    viewer: AuthUser,
    {
      chat,
      files,
      conversation,
    }: {
      chat: ChatRowWithSender;
      files: readonly AttachmentRow[];
      conversation: ConversationRow;
    },
    /** The request's socket; false: tell nobody (only answer). */
    socketId: string | undefined | false,
  ): Promise<EditMessageResponse> => {
    const side = sideOf(viewer);
    const message: Chat = presentChat(
      chat,
      files,
      viewer.id,
      !showsReceipts(conversation, side.party),
    );
    const online = await presence.onlineAmong([chat.receiver_id, chat.sender_id]);
    const messengerUser = presentConversation(conversation, side, online);
    const channelEvents: [number, MessageUpdatedEvent][] = [
      [chat.sender_id, { messenger_user_id: conversation.id, message, messengerUser }],
    ];
    const receiverSide = otherSideOf(viewer);
    if (!blockedBy(conversation, receiverSide.party))
      channelEvents.push([
        chat.receiver_id,
        {
          messenger_user_id: conversation.id,
          message: presentChat(
            chat,
            files,
            chat.receiver_id,
            !showsReceipts(conversation, receiverSide.party),
          ),
          messengerUser: presentConversation(conversation, receiverSide, online),
        },
      ]);
    if (socketId !== false)
      await Promise.all(
        channelEvents.map(([userId, event]) =>
          publish(userId, MESSAGE_UPDATED_EVENT, event, socketId),
        ),
      );
    return { message, messengerUser };
  };

  return {
    /**
     * Without `limit`, every conversation; with it, one page of a list that stays in the order it
     * had when its first page was read (see repository.listPage), and the cursor of the next page. The counters are over all the viewer's conversations either way.
     */
    async initialData(viewer: AuthUser, query: InitialDataQuery): Promise<InitialDataResponse> {
      const side = sideOf(viewer);
      const filter: ListFilter = {
        jobId: query.job_id,
        search: query.search ?? null,
        archived: query.archived ?? null,
      };
      const { limit } = query;
      if (query.cursor !== undefined && limit === undefined)
        throw validationFailed('cursor', 'The cursor needs a limit.');
      const cursor = query.cursor === undefined ? undefined : decodeListCursor(query.cursor);
      // A first page is the list as it is now: every committed message counts, even one written
      // in this very millisecond or by an instance whose clock runs a little ahead.
      const t0 = cursor?.t0 ?? END_OF_TIME;
      const readAt = nowIso();
      const [jobs, rows, counts] = await Promise.all([
        viewer.role === 'candidate'
          ? repository.jobsOfCandidateConversations(db, viewer.id)
          : repository.jobsOfCompany(db, viewer.id),
        limit === undefined
          ? repository.listConversations(db, viewer.id, side, filter)
          : repository.listPage(db, viewer.id, side, filter, {
              t0,
              after: cursor ? { at: cursor.at, id: cursor.id } : null,
              limit: limit + 1,
            }),
        repository.listCounts(db, viewer.id, side),
      ]);
      const page = limit === undefined ? rows : rows.slice(0, limit);
      const last = page.at(-1);
      const online = await onlineOthers(page, side);
      return {
        jobs: jobs.map(presentJob),
        messengerUsers: page.map((row) => presentConversation(row, side, online)),
        auth: {
          id: viewer.id,
          role: viewer.role,
          name: viewer.name,
          suspended: viewer.suspended,
        },
        ...counts,
        ...(limit === undefined
          ? {}
          : {
              next_cursor:
                rows.length > limit && last && 'list_at' in last
                  ? encodeListCursor({
                      t0:
                        cursor?.t0 ??
                        momentAfter(
                          page.flatMap((row) => ('list_at' in row ? [String(row.list_at)] : [])),
                          readAt,
                        ),
                      at: String(last.list_at),
                      id: last.id,
                    })
                  : null,
            }),
      };
    },

    async getMessages(viewer: AuthUser, input: GetMessageInput): Promise<GetMessageResponse> {
      const isCandidate = viewer.role === 'candidate';
      const found = await repository.findConversationId(
        db,
        isCandidate ? viewer.id : input.receiver_id,
        isCandidate ? input.receiver_id : viewer.id,
        input.job_id,
      );
      if (!found) throw notFound('Conversation not found.');
      // Nothing unread (the counter moves with the messages, in the same transactions): no write.
      if (input.before === undefined && found[sideOf(viewer).unread] > 0) {
        const unseen = await repository.findConversation(db, found.id);
        if (unseen) await markSeenIn(viewer, unseen);
      }
      const limit = input.limit ?? PAGE_LIMIT_DEFAULT;
      // For a company (or owner) viewer the candidate is the receiver (found by it above), so the
      // application group is looked up alongside the rest rather than after it.
      const [row, page, receiver, job, group] = await Promise.all([
        repository.findConversation(db, found.id),
        repository.chatsPage(db, found.id, input.before, limit + 1),
        repository.findUser(db, input.receiver_id),
        input.job_id === null ? undefined : repository.findJob(db, input.job_id),
        !isCandidate && input.job_id !== null
          ? repository.applicationGroup(db, input.job_id, input.receiver_id)
          : undefined,
      ]);
      if (!row || !receiver) throw notFound('Conversation not found.');
      const side = sideOf(viewer);
      const shown = page.slice(0, limit).reverse();
      const files = await repository.attachmentsOfChats(
        db,
        shown.map((chat) => chat.id),
      );
      const viewerHidesReceipts = !showsReceipts(row, side.party);
      const chats = shown.map((chat) =>
        presentChat(
          chat,
          files.filter((file) => file.chat_id === chat.id),
          viewer.id,
          viewerHidesReceipts,
        ),
      );
      const online = await onlineOthers([row], side);
      return {
        receiver: isCandidate
          ? { id: receiver.id, logo: receiver.logo, user: { name: receiver.name } }
          : { id: receiver.id, user: { name: receiver.name, image_url: receiver.image_url } },
        receiverJob: job ? presentJob(job) : null,
        messages: groupByDate(chats),
        has_more: page.length > limit,
        messengerUser: presentConversation(row, side, online),
        application_group: group ? { id: group.id, name: group.name } : null,
      };
    },

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
     * The sender edits a message's text within the edit window, in one commit with the full-text
     * index, the list's preview (when it was the conversation's latest message) and the host's
     * webhook; then `MessageUpdated` to both parties. A suspended sender, or one the receiver
     * blocked, edits nothing (403). The same text again changes nothing (200, `edited_at` as it was).
     */
    async editMessage(
      viewer: AuthUser,
      id: number,
      text: string,
      socketId?: string,
    ): Promise<EditMessageResponse> {
      const now = nowIso();
      const changed = await repository.inWriteTransaction(async (trx) => {
        const { chat, conversation, checkWindow } = await changeableMessage(trx, viewer, id, now);
        refuseWriteOf(viewer, conversation);
        checkWindow();
        if (conversation.candidate_erased_at !== null || conversation.company_erased_at !== null)
          throw conversationClosed();
        const files = await repository.attachmentsOfChats(trx, [chat.id]);
        if (!hasVisibleText(text) && !(files.length > 0 && text === ''))
          throw validationFailed('message', 'The message field is required.');
        if (text === chat.message) return { chat, files, conversation, changed: false };
        await repository.editChat(trx, chat.id, text, now);
        await repository.reindexChat(trx, chat.id, text);
        if ((await repository.newestShownChatId(trx, conversation.id)) === chat.id)
          await repository.setPreview(
            trx,
            conversation.id,
            previewOfMessage(
              text,
              files.map((file) => file.name),
            ),
          );
        const edited: ChatRowWithSender = { ...chat, message: text, edited_at: now };
        await repository.writeTasks(
          trx,
          messageChangeWork?.outboxTasksForChange('message.updated', edited, files, conversation) ??
            [],
          now,
        );
        const after = await repository.findConversation(trx, conversation.id);
        return { chat: edited, files, conversation: after ?? conversation, changed: true };
      });
      // the same text: nothing changed, nobody is told
      return broadcastChange(viewer, changed, changed.changed ? socketId : false);
    },

    /**
     * The sender deletes a message within the edit window (a suspended sender too, and one the
     * receiver blocked: then nothing reaches the receiver live). In one commit: the text emptied,
     * the files' rows removed, no full-text entry, the list's preview back to the newest message
     * left (when it was the latest; time and activity unchanged), one unread fewer for a receiver
     * who had not seen it, and the host's webhook. Then its files leave storage, and
     * `MessageUpdated` goes to both parties.
     */
    async deleteMessage(viewer: AuthUser, id: number, socketId?: string): Promise<void> {
      const now = nowIso();
      const deleted = await repository.inWriteTransaction(async (trx) => {
        const { chat, conversation, checkWindow } = await changeableMessage(trx, viewer, id, now);
        checkWindow();
        // the list previews the newest message not deleted: this one, until now?
        const previewed = (await repository.newestShownChatId(trx, conversation.id)) === chat.id;
        const removedFiles = await repository.deleteChat(trx, chat.id, now);
        await repository.reindexChat(trx, chat.id, null);
        if (previewed) {
          const shown = await repository.newestShownChat(trx, conversation.id);
          await repository.setPreview(
            trx,
            conversation.id,
            shown ? previewOfMessage(shown.message, shown.fileNames) : null,
          );
        }
        if (chat.seen_at === null)
          await repository.lowerUnread(trx, conversation.id, otherSideOf(viewer));
        const gone: ChatRowWithSender = { ...chat, message: '', deleted_at: now };
        await repository.writeTasks(
          trx,
          messageChangeWork?.outboxTasksForChange('message.deleted', gone, [], conversation) ?? [],
          now,
        );
        const after = await repository.findConversation(trx, conversation.id);
        return { chat: gone, removedFiles, conversation: after ?? conversation };
      });
      // the rows are gone: bytes left behind by a failure here go with the sweep of orphans
      if (deleted.removedFiles.length > 0)
        await storedFiles?.removeStoredFiles(deleted.removedFiles).catch(onStorageError);
      await broadcastChange(
        viewer,
        { chat: deleted.chat, files: [], conversation: deleted.conversation },
        socketId,
      );
    },

    /**
     * The viewer's own conversations among `ids`, each as it is in the viewer's list, with whether
     * the viewer hides their read receipts (how their messages are shown to them); others' are
     * left out.
     */
    async conversationsSeenBy(
      viewer: AuthUser,
      ids: readonly number[],
    ): Promise<Map<number, { messengerUser: MessengerUser; viewerHidesReceipts: boolean }>> {
      const side = sideOf(viewer);
      const rows = await repository.findOwnConversations(db, [...new Set(ids)], viewer.id, side);
      const online = await onlineOthers(rows, side);
      return new Map(
        rows.map((row) => [
          row.id,
          {
            messengerUser: presentConversation(row, side, online),
            viewerHidesReceipts: !showsReceipts(row, side.party),
          },
        ]),
      );
    },

    /**
     * The user's unread messages over all their conversations (archived ones included): the total
     * the page shows (`unread_total`).
     */
    async unreadTotal(user: Pick<AuthUser, 'id' | 'role'>): Promise<number> {
      const { unread_total } = await repository.listCounts(db, user.id, sideOf(user));
      return unread_total;
    },

    /** One conversation as this party sees it (404/403 as for the page's calls). */
    async conversationFor(viewer: AuthUser, conversationId: number): Promise<MessengerUser> {
      await ownConversation(viewer, conversationId);
      return present(viewer, conversationId);
    },

    async markSeen(viewer: AuthUser, conversationId: number): Promise<MessengerUser> {
      await markSeenIn(viewer, await ownConversation(viewer, conversationId));
      return present(viewer, conversationId);
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

    async setArchived(
      viewer: AuthUser,
      conversationId: number,
      archived: boolean,
    ): Promise<MessengerUser> {
      await ownConversation(viewer, conversationId);
      await repository.setArchive(db, conversationId, sideOf(viewer), archived);
      return present(viewer, conversationId);
    },
  };
};

export type MessengerService = ReturnType<typeof createMessengerService>;
