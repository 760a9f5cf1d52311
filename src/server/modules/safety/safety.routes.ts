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
    description:
      'Everyone the signed-in user blocked, with when; the page’s settings list them with an "Unblock" button.',
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
    description:
      'The blocked party’s sends, typing and uploads toward the viewer answer 403 from then on, nothing of theirs reaches the viewer live, and each sees the other offline. Earlier messages stay for both. 201 for a new block, 200 when already blocked. The host is not told.',
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
    description:
      'Lifts the signed-in user’s block of that person: messages can flow again both ways. Not blocked: 204 all the same.',
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
    description:
      'Files a report about the other party of one of the viewer’s conversations, keeping a copy of its latest 50 messages. With `block: true` the other party is blocked at the same time. The host receives a `report.created` webhook at once and finds the report in `GET /api/v1/reports`. Each user may file 10 reports in 24 hours (429 beyond).',
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
