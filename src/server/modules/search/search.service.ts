import type { Kysely } from 'kysely';
import type { AuthUser } from '../../../shared/models.js';
import {
  queryWords,
  searchSnippet,
  type SearchMessagesResponse,
  type SearchResult,
} from '../../../shared/message-search.js';
import type { Database } from '../../db/schema.js';
import { validationFailed } from '../../lib/http-error.js';
import { presentChat } from '../../read-model/chat.presenter.js';
import type { MessengerService } from '../messenger/messenger.service.js';
import type { SearchRepository } from './search.repository.js';

export interface SearchServiceOptions {
  db: Kysely<Database>;
  repository: SearchRepository;
  /** The conversations of the results, as the viewer's list shows them. */
  messengerService: Pick<MessengerService, 'conversationsSeenBy'>;
}

export interface SearchInput {
  q: string;
  limit: number;
  cursor?: string | undefined;
}

/** Before every message: the first page. */
const FIRST_PAGE = 2 ** 31 - 1;

/** The next page starts after this message: its id, base64url (opaque to clients). */
export const encodeSearchCursor = (lastId: number): string =>
  Buffer.from(String(lastId), 'utf8').toString('base64url');

/** The message id a cursor stands for; 422 on `cursor` when it is not one this server gave. */
export const decodeSearchCursor = (cursor: string): number => {
  const text = /^[A-Za-z0-9_-]+$/.test(cursor)
    ? Buffer.from(cursor, 'base64url').toString('utf8')
    : '';
  const id = /^[1-9]\d{0,9}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(id) || id > FIRST_PAGE)
    throw validationFailed('cursor', 'The cursor is not valid.');
  return id;
};

export const createSearchService = ({
  db,
  repository,
  messengerService,
}: SearchServiceOptions) => ({
  /**
   * The viewer's messages (sent or received, archived conversations included) with every word of
   * `q` at the start of one of their words, newest first, a page at a time. A `q` without any
   * word (punctuation only) finds nothing.
   */
  async searchMessages(viewer: AuthUser, input: SearchInput): Promise<SearchMessagesResponse> {
    // an empty cursor (a client that always sends the parameter) asks for the first page
    const before = input.cursor ? decodeSearchCursor(input.cursor) : FIRST_PAGE;
    const words = queryWords(input.q);
    if (words.length === 0) return { results: [], next_cursor: null };
    const ids = await repository.matchingIds(db, viewer.id, words, before, input.limit + 1);
    const shown = ids.slice(0, input.limit);
    const [rows, files] = await Promise.all([
      repository.chatsByIds(db, shown),
      repository.attachmentsOfChats(db, shown),
    ]);
    const conversations = await messengerService.conversationsSeenBy(
      viewer,
      rows.map((row) => row.messenger_user_id),
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    const results = shown.flatMap((id): SearchResult[] => {
      const row = byId.get(id);
      const conversation = row && conversations.get(row.messenger_user_id);
      if (!row || !conversation) return [];
      return [
        {
          message: presentChat(
            row,
            files.filter((file) => file.chat_id === id),
            viewer.id,
            conversation.viewerHidesReceipts,
          ),
          messenger_user: conversation.messengerUser,
          snippet: searchSnippet(row.message, input.q),
        },
      ];
    });
    const last = shown.at(-1);
    return {
      results,
      next_cursor: ids.length > input.limit && last !== undefined ? encodeSearchCursor(last) : null,
    };
  },
});

export type SearchService = ReturnType<typeof createSearchService>;
