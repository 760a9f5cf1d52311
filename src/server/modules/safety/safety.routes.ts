import {
  blockParamsSchema,
  blockResponseSchema,
  blocksResponseSchema,
  createBlockBodySchema,
  createReportBodySchema,
  createReportResponseSchema,
  safetyPaths,
} from '../../../shared/safety.js';
import { definePageCallsFor, pageCallsPlugin } from '../../http/page-calls.js';
import { errors } from '../../openapi/vocabulary.js';
import type { SafetyService } from './safety.service.js';

const { pageRead, pageChange } = definePageCallsFor<{ safetyService: SafetyService }>('safety');

/**
 * The viewer's blocks and reports, guarded like the messaging calls (application key, session or
 * token, CSRF for a cookie-authenticated change), all checked before the body is read.
 */
export const safetyRoutes = pageCallsPlugin([
  pageRead({
    path: safetyPaths.blocks,
    operationId: 'listBlocks',
    summary: 'The people the viewer blocked, latest first',
    responses: { 200: { description: 'The blocks.', schema: blocksResponseSchema } },
    handler: async ({ viewer }, { safetyService }) => ({
      blocks: await safetyService.listBlocks(viewer),
    }),
  }),
  pageChange({
    method: 'post',
    path: safetyPaths.blocks,
    operationId: 'blockUser',
    summary:
      'Block a conversation partner: their sends, typing and uploads toward the viewer are refused, nothing of theirs arrives live, and the viewer looks offline to them',
    body: createBlockBodySchema,
    responses: {
      200: { description: 'Already blocked.', schema: blockResponseSchema },
      201: { description: 'Blocked.', schema: blockResponseSchema },
    },
    handler: async ({ body, viewer, reply }, { safetyService }) => {
      const { created, block } = await safetyService.block(viewer, body.user_id);
      return reply.code(created ? 201 : 200).send({ block });
    },
  }),
  pageChange({
    method: 'delete',
    path: safetyPaths.block,
    operationId: 'unblockUser',
    summary: 'Lift the viewer’s block of a user (no block: nothing changes)',
    params: blockParamsSchema,
    responses: { 204: { description: 'Not blocked (any more).' } },
    handler: async ({ params, viewer, reply }, { safetyService }) => {
      await safetyService.unblock(viewer, params.userId);
      return reply.code(204).send();
    },
  }),
  pageChange({
    method: 'post',
    path: safetyPaths.reports,
    operationId: 'reportConversation',
    summary:
      'Report the other party of one of the viewer’s conversations (with `block`: also block them); the host hears of it (`report.created`)',
    body: createReportBodySchema,
    responses: {
      201: {
        description: 'Filed, with a copy of the conversation’s latest 50 messages as they are now.',
        schema: createReportResponseSchema,
      },
      ...errors(403, 404, 429),
    },
    handler: async ({ body, viewer, reply }, { safetyService }) =>
      reply.code(201).send(await safetyService.report(viewer, body)),
  }),
]);
