import type {
  GetMessageResponse,
  InitialDataQuery,
  InitialDataResponse,
  SendMessageResponse,
} from '../../../shared/api.js';
import type { Kysely } from 'kysely';
import { PAGE_LIMIT_DEFAULT } from '../../../shared/api.js';
import {
  CHAT_MESSAGE_EVENT,
  userChannelName,
  type ChatMessageEvent,
  MESSAGES_SEEN_EVENT,
  TYPING_EVENT,
  type TypingEvent,
  type MessagesSeenEvent,
} from '../../../shared/events.js';
import type { AuthUser, Chat, MessengerUser } from '../../../shared/models.js';
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
import type { Executor } from '../../db/database.js';
import type { WriteBatcher } from '../../db/write-batcher.js';
import type { NewOutboxTask } from '../../outbox/outbox.js';
import {
  CANDIDATE_SIDE,
  type ChatRowWithSender,
  COMPANY_SIDE,
  type ConversationRow,
  type ListFilter,
  type MessengerRepository,
  type Side,
} from './messenger.repository.js';
import {
  groupByDate,
  otherPartyId,
  presentChat,
  presentConversation,
  presentJob,
  previewOfMessage,
  type AttachmentRow,
} from './messenger.presenter.js';
import type { Broadcaster } from '../../realtime/broadcaster-port.js';
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
  /**
   * The durable work a new message brings (notifications: the e-mail rule, the webhook), written in
   * the send's own commit, so that it exists exactly when the message does.
   */
  tasksForMessage?: (
    chat: ChatRowWithSender,
    attachments: readonly AttachmentRow[],
  ) => readonly NewOutboxTask[];
  /** Transactions of sends and marks seen (on SQLite, those of one moment share a commit). */
  writes?: WriteBatcher;
  /** Writes a task with the executor given (the send's transaction). */
  enqueue?: (executor: Executor, task: NewOutboxTask) => Promise<unknown>;
}

export interface SendInput {
  receiver_id: number;
  messenger_user: number;
  job_id: number | null;
  message: string;
  client_id?: string | undefined;
  /** Part 2: the sender's own unused uploads to send with the message. */
  attachment_ids?: number[] | undefined;
}

export interface GetMessageInput {
  receiver_id: number;
  job_id: number | null;
  before?: number | undefined;
  limit?: number | undefined;
}

const sideOf = (viewer: AuthUser): Side =>
  viewer.role === 'candidate' ? CANDIDATE_SIDE : COMPANY_SIDE;
const otherSideOf = (viewer: AuthUser): Side =>
  viewer.role === 'candidate' ? COMPANY_SIDE : CANDIDATE_SIDE;

const PUBLISH_TIME_LIMIT_MS = 2000;
/** At most one `Typing` broadcast this often per conversation and typist, seconds. */
const TYPING_EVERY_S = 2;

/** A send to (or from) a conversation whose other party was erased. */
export const CONVERSATION_CLOSED =
  'This conversation is closed: the other person’s account was deleted.';

const withTimeLimit = <T>(work: Promise<T>, ms: number): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
};

export const createMessengerService = ({
  db,
  repository,
  publisher,
  limits,
  sendRate,
  onPublishError,
  presence,
  tasksForMessage,
  enqueue,
  writes = { run: (work) => db.transaction().execute(work) },
}: MessengerServiceOptions) => {
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
    const lastSeenId = await writes.run((trx) =>
      repository.markSeen(trx, conversation.id, viewer.id, side, seenAt, !readerShowsReceipts),
    );
    const senderShowsReceipts = showsReceipts(
      conversation,
      side.party === 'candidate_id' ? 'company_id' : 'candidate_id',
    );
    if (lastSeenId === null || !readerShowsReceipts || !senderShowsReceipts) return;
    const event: MessagesSeenEvent = {
      messenger_user_id: conversation.id,
      reader_id: viewer.id,
      seen_at: seenAt,
      last_seen_id: lastSeenId,
    };
    await withTimeLimit(
      publisher.publish(
        [userChannelName(otherPartyId(conversation, side))],
        MESSAGES_SEEN_EVENT,
        event,
      ),
      PUBLISH_TIME_LIMIT_MS,
    ).catch(onPublishError);
  };

  /** Who among the other parties of these conversations is online now. */
  const onlineOthers = (rows: readonly ConversationRow[], side: Side) =>
    presence.onlineAmong(rows.map((row) => otherPartyId(row, side)));

  const present = async (viewer: AuthUser, id: number): Promise<MessengerUser> => {
    const row = await ownConversation(viewer, id);
    return presentConversation(row, sideOf(viewer), await onlineOthers([row], sideOf(viewer)));
  };

  return {
    /**
     * Part 1 without `limit` (every conversation); Part 2 with it: one page of a list that stays
     * in the order it had when its first page was read (see repository.listPage), and the cursor
     * of the next page. The counters are over all the viewer's conversations either way.
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
        auth: { id: viewer.id, role: viewer.role, name: viewer.name },
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

    /** Stores the message and updates the conversation in one transaction, then broadcasts it. */
    async send(
      viewer: AuthUser,
      input: SendInput,
      socketId?: string,
    ): Promise<SendMessageResponse> {
      const wait = await sendWait(viewer, input.messenger_user);
      if (wait > 0) throw tooManyRequests(wait, 'Too many messages. Please slow down.');
      const side = sideOf(viewer);
      const receiverSide = otherSideOf(viewer);

      const attachmentIds = input.attachment_ids ?? [];
      /** The conversation as read for this send, or the error the send answers with. */
      const checkConversation = <C extends ConversationRow>(conversation: C | undefined): C => {
        if (!conversation) throw notFound('Conversation not found.');
        if (conversation[side.party] !== viewer.id) throw forbidden();
        if (conversation.candidate_erased_at !== null || conversation.company_erased_at !== null)
          throw new HttpError(422, CONVERSATION_CLOSED, { message: [CONVERSATION_CLOSED] });
        if (conversation[receiverSide.party] !== input.receiver_id) {
          throw validationFailed(
            'receiver_id',
            'The receiver_id is not the other party of this conversation.',
          );
        }
        if (conversation.job_id !== input.job_id) {
          throw validationFailed('job_id', 'The job_id does not match this conversation.');
        }
        return conversation;
      };
      const newChat = (id: number, conversationId: number, createdAt: string) => ({
        id,
        sender_id: viewer.id,
        receiver_id: input.receiver_id,
        job_id: input.job_id,
        messenger_user_id: conversationId,
        message: input.message,
        client_id: input.client_id ?? null,
        created_at: createdAt,
        seen_at: null,
        seen_privately: 0,
        sender_name: viewer.name,
      });
      // A client_id sent before is not looked up first: its unique index refuses the insert, and
      // the replay is answered below with the message stored then.

      /** PostgreSQL, no files: one read, then every write in one statement (no transaction). */
      const storeAtOnce = async () => {
        const { next_chat_id: chatId, ...conversation } = checkConversation(
          await repository.findConversationForSend(db, input.messenger_user),
        );
        const chat = newChat(chatId, conversation.id, nowIso());
        const updated = await repository.storeSend(db, {
          chat,
          receiverSide,
          preview: previewOfMessage(input.message, []),
          tasks: tasksForMessage?.(chat, []) ?? [],
          now: chat.created_at,
        });
        // A party was erased since the read: nothing was written.
        if (!updated)
          throw new HttpError(422, CONVERSATION_CLOSED, { message: [CONVERSATION_CLOSED] });
        return { chat, files: [], created: true, conversation: { ...conversation, ...updated } };
      };

      const storeInTransaction = () =>
        writes.run(async (trx) => {
          const conversation = checkConversation(
            await repository.findConversation(trx, input.messenger_user),
          );
          const createdAt = nowIso();
          const { id } = await repository.insertChat(trx, {
            messenger_user_id: conversation.id,
            sender_id: viewer.id,
            receiver_id: input.receiver_id,
            job_id: input.job_id,
            message: input.message,
            client_id: input.client_id ?? null,
            created_at: createdAt,
            seen_at: null,
          });
          const files =
            attachmentIds.length === 0
              ? []
              : await repository.claimAttachments(trx, attachmentIds, viewer.id, id);
          if (files.length !== attachmentIds.length)
            throw validationFailed(
              'attachment_ids',
              'Only your own files not yet sent can be attached.',
            );
          const updated = await repository.recordSend(
            trx,
            conversation.id,
            receiverSide,
            previewOfMessage(
              input.message,
              files.map((file) => file.name),
            ),
            createdAt,
          );
          const chat = newChat(id, conversation.id, createdAt);
          for (const task of tasksForMessage?.(chat, files) ?? []) await enqueue?.(trx, task);
          return { chat, files, created: true, conversation: { ...conversation, ...updated } };
        });

      const store = (): Promise<{
        chat: ChatRowWithSender;
        files: readonly AttachmentRow[];
        created: boolean;
        conversation: ConversationRow | undefined;
      }> =>
        repository.storesSendAtOnce && attachmentIds.length === 0
          ? storeAtOnce()
          : storeInTransaction();

      let stored: Awaited<ReturnType<typeof store>>;
      try {
        stored = await store();
      } catch (error) {
        // A client_id already stored answers with the message stored then: the unique index
        // refused this insert (a replay, or two requests racing), or the send was refused for
        // what changed since (the conversation closed, a file expired) while its first attempt
        // had gone through and only the answer was lost.
        if (!input.client_id || !(isUniqueViolation(error) || error instanceof HttpError))
          throw error;
        const existing = await repository
          .findChatByClientId(db, viewer.id, input.client_id)
          .catch(() => undefined);
        if (!existing) throw error;
        stored = {
          chat: existing,
          files: await repository.attachmentsOfChats(db, [existing.id]),
          created: false,
          conversation: undefined,
        };
      }
      if (stored.chat.messenger_user_id !== input.messenger_user) {
        throw new HttpError(422, 'The client_id was already used for another conversation.', {
          client_id: ['The client_id was already used for another conversation.'],
        });
      }
      // A new message: the conversation as the send's own update left it; a replay: read it again.
      const conversation =
        stored.conversation ?? (await ownConversation(viewer, stored.chat.messenger_user_id));
      // a replay shows the message as it is now, as the sender may see it (a new one is unseen)
      const viewerHidesReceipts = !showsReceipts(conversation, side.party);
      const message: Chat = presentChat(stored.chat, stored.files, viewer.id, viewerHidesReceipts);
      // each party's view shows whether the other one is online
      const online = await presence.onlineAmong([message.receiver_id, message.sender_id]);
      const messengerUser = presentConversation(conversation, side, online);
      if (stored.created && stored.conversation) {
        // One event per channel, each with the conversation as that channel's owner sees it.
        const events: [number, ChatMessageEvent][] = [
          [
            message.receiver_id,
            {
              chatMessage: message,
              messengerUser: presentConversation(stored.conversation, receiverSide, online),
            },
          ],
          [message.sender_id, { chatMessage: message, messengerUser }],
        ];
        // The message is stored: a stalled broadcaster may delay the answer a little, never hold it.
        await withTimeLimit(
          Promise.all(
            events.map(([userId, event]) =>
              publisher.publish([userChannelName(userId)], CHAT_MESSAGE_EVENT, event, socketId),
            ),
          ),
          PUBLISH_TIME_LIMIT_MS,
        ).catch(onPublishError);
      }
      return { message, messengerUser };
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
      if (row.candidate_erased_at !== null || row.company_erased_at !== null) return;
      const wait = await limits.take(
        `typing:${conversationId}:${viewer.id}`,
        1,
        1 / TYPING_EVERY_S,
      );
      if (wait > 0) return;
      const event: TypingEvent = { messenger_user_id: conversationId, user_id: viewer.id };
      await withTimeLimit(
        publisher.publish(
          [userChannelName(otherPartyId(row, sideOf(viewer)))],
          TYPING_EVENT,
          event,
        ),
        PUBLISH_TIME_LIMIT_MS,
      ).catch(onPublishError);
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
