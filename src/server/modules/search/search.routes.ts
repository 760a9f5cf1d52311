import {
  searchMessagesQuerySchema,
  searchMessagesResponseSchema,
  workingFasterPaths,
} from '../../../shared/working-faster.js';
import { defineRouteFor, routesPlugin } from '../../http/route.js';
import { errors, pageCallErrors, security } from '../../openapi/vocabulary.js';
import { viewerOf } from '../../plugins/auth.js';
import type { SearchService } from './search.service.js';

const defineRoute = defineRouteFor<{ searchService: SearchService }>({
  tag: 'messenger',
  security: security.pageRead,
});

/** Searching the viewer's messages, guarded like the page's other reads. */
export const searchRoutes = routesPlugin(
  [
    defineRoute({
      method: 'get',
      path: workingFasterPaths.searchMessages,
      operationId: 'searchMessages',
      summary:
        'The viewer’s messages whose words start with every word of `q` (case and diacritics ignored), newest first',
      query: searchMessagesQuerySchema,
      responses: {
        200: {
          description:
            'At most `limit` results, each the message, its conversation as the viewer’s list shows it, ' +
            'and a snippet of its text around the first match; `next_cursor` (pass it as `cursor` for ' +
            'the next page; `null` on the last).',
          schema: searchMessagesResponseSchema,
        },
        ...errors(...pageCallErrors),
      },
      handler: async ({ query, request }, { searchService }) =>
        searchService.searchMessages(viewerOf(request).user, query),
    }),
  ],
  async (app, options: { searchService: SearchService }) => {
    app.addHook('onRequest', app.requireAppKey);
    app.addHook('onRequest', app.requireViewer);
    return options;
  },
);
