import { messengerUserParamsSchema } from '../../../shared/conversations.js';
import { paths } from '../../../shared/paths.js';
import {
  embedConversationResponseSchema,
  openEmbedConversationBodySchema,
  openEmbedConversationResponseSchema,
} from '../../../shared/embed-conversations.js';
import { definePageCallsFor, pageCallsPlugin } from '../../http/page-calls.js';
import { errors } from '../../openapi/vocabulary.js';
import type { EmbedService } from './embed.service.js';

const { pageRead, pageChange } = definePageCallsFor<{ embedService: EmbedService }>('messenger');

/** The embedded page's calls (`/messages?embed=…`): parse, one service call, status. */
export const embedRoutes = pageCallsPlugin([
  pageChange({
    method: 'post',
    path: paths.embedConversations,
    operationId: 'openEmbedConversation',
    summary: 'Open (or create) one of the viewer’s conversations by the host’s ids',
    description:
      'The embedded page in conversation mode (and `open` from the host page): the conversation of `company` and `candidate` (about `job`), opened or created exactly as `POST /api/v1/conversations` without a message. The viewer must be that company or that candidate (else 403); an unknown company, candidate or job is a 422 naming it.',
    body: openEmbedConversationBodySchema,
    responses: {
      200: {
        description: 'The conversation, as the viewer sees it and by the host’s ids.',
        schema: openEmbedConversationResponseSchema,
      },
      ...errors(403),
    },
    handler: async ({ body, viewer }, { embedService }) =>
      embedService.openConversation(viewer, body),
  }),
  pageRead({
    path: paths.embedConversation,
    operationId: 'getEmbedConversation',
    summary: 'One of the viewer’s conversations by the host’s ids',
    description:
      'The host’s ids of a conversation of the viewer (for the embedded page’s `conversation` event); any other conversation is a 404.',
    params: messengerUserParamsSchema,
    responses: {
      200: {
        description: 'The conversation by the host’s ids.',
        schema: embedConversationResponseSchema,
      },
      ...errors(404),
    },
    handler: async ({ params, viewer }, { embedService }) =>
      embedService.conversation(viewer, params.id),
  }),
]);
