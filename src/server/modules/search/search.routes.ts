import {
  searchMessagesQuerySchema,
  searchMessagesResponseSchema,
  messageSearchPaths,
} from '../../../shared/message-search.js';
import { definePageCallsFor, pageCallsPlugin } from '../../http/page-calls.js';
import type { SearchService } from './search.service.js';

const { pageRead } = definePageCallsFor<{ searchService: SearchService }>('messenger');

/** Searching the viewer's messages, guarded like the page's other reads. */
export const searchRoutes = pageCallsPlugin([
  pageRead({
    path: messageSearchPaths.searchMessages,
    operationId: 'searchMessages',
    summary:
      'The viewer’s messages whose words start with every word of `q` (case and diacritics ignored), newest first',
    description:
      'Searches the messages of the signed-in user’s own conversations (both sent and received; deleted ones are never found). Each word of `q` must begin a word of the message, ignoring case and diacritics, in English and Arabic. Results come newest first, a page at a time: pass `next_cursor` back as `cursor`.',
    query: searchMessagesQuerySchema,
    responses: {
      200: {
        description:
          'At most `limit` results, each the message, its conversation as the viewer’s list shows it, ' +
          'and a snippet of its text around the first match; `next_cursor` (pass it as `cursor` for ' +
          'the next page; `null` on the last).',
        schema: searchMessagesResponseSchema,
      },
    },
    handler: async ({ query, viewer }, { searchService }) =>
      searchService.searchMessages(viewer, query),
  }),
]);
