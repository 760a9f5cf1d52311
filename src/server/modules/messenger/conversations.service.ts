import type { Kysely } from 'kysely';
import type { InitialDataQuery, InitialDataResponse } from '../../../shared/conversations.js';
import type { GetMessageResponse } from '../../../shared/messages.js';
import { PAGE_LIMIT_DEFAULT } from '../../../shared/paths.js';
import type { AuthUser, MessengerUser } from '../../../shared/models.js';
import type { Database } from '../../db/schema.js';
import { notFound, validationFailed } from '../../lib/http-error.js';
import { nowIso } from '../../lib/time.js';
import type { ConversationAccess } from './conversation-access.js';
import type { ConversationRow } from './conversation-query.repository.js';
import type { ConversationsRepository, ListFilter } from './conversations.repository.js';
import { END_OF_TIME, decodeListCursor, encodeListCursor, momentAfter } from './list-cursor.js';
import {
  groupByDate,
  presentChat,
  presentConversation,
  presentJob,
} from './messenger.presenter.js';
import { showsReceipts, sideOf } from './messenger-rules.js';

export interface GetMessageInput {
  receiver_id: number;
  job_id: number | null;
  before?: number | undefined;
  limit?: number | undefined;
}

export interface ConversationsServiceOptions {
  /** The database: passed to each repository call. */
  db: Kysely<Database>;
  repository: ConversationsRepository;
  access: ConversationAccess;
  /** Marks the viewer's unread messages of the conversation seen (opening it does). */
  markSeenIn: (viewer: AuthUser, conversation: ConversationRow) => Promise<void>;
}

/**
 * The viewer's conversations: the list (all of it, or a page at a time), its counters, one
 * conversation with a page of its history, and the archive flag.
 */
export const createConversationsService = ({
  db,
  repository,
  access: { ownConversation, onlineOthers, present },
  markSeenIn,
}: ConversationsServiceOptions) => ({
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

  async setArchived(
    viewer: AuthUser,
    conversationId: number,
    archived: boolean,
  ): Promise<MessengerUser> {
    await ownConversation(viewer, conversationId);
    await repository.setArchive(db, conversationId, sideOf(viewer), archived);
    return present(viewer, conversationId);
  },
});

export type ConversationsService = ReturnType<typeof createConversationsService>;
