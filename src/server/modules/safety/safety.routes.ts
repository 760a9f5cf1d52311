import {
  blockParamsSchema,
  blockResponseSchema,
  blocksResponseSchema,
  createBlockBodySchema,
  createReportBodySchema,
  createReportResponseSchema,
  safetyPaths,
} from '../../../shared/safety.js';
import { defineRouteFor, routesPlugin } from '../../http/route.js';
import { bodyErrors, errors, pageCallErrors, security } from '../../openapi/vocabulary.js';
import { viewerOf } from '../../plugins/auth.js';
import type { SafetyService } from './safety.service.js';

const defineRoute = defineRouteFor<SafetyService>({
  tag: 'safety',
  security: security.pageChange,
});

/**
 * The viewer's blocks and reports, guarded like the messaging calls (application key, session or
 * token, CSRF for a cookie-authenticated change), all checked before the body is read.
 */
export const safetyRoutes = routesPlugin(
  [
    defineRoute({
      method: 'get',
      path: safetyPaths.blocks,
      operationId: 'listBlocks',
      summary: 'The people the viewer blocked, latest first',
      security: security.pageRead,
      responses: {
        200: { description: 'The blocks.', schema: blocksResponseSchema },
        ...errors(...pageCallErrors),
      },
      handler: async ({ request }, service) => ({
        blocks: await service.listBlocks(viewerOf(request).user),
      }),
    }),
    defineRoute({
      method: 'post',
      path: safetyPaths.blocks,
      operationId: 'blockUser',
      summary:
        'Block a conversation partner: their sends, typing and uploads toward the viewer are refused, nothing of theirs arrives live, and the viewer looks offline to them',
      body: createBlockBodySchema,
      responses: {
        200: { description: 'Already blocked.', schema: blockResponseSchema },
        201: { description: 'Blocked.', schema: blockResponseSchema },
        ...errors(...bodyErrors, ...pageCallErrors),
      },
      handler: async ({ body, request, reply }, service) => {
        const { created, block } = await service.block(viewerOf(request).user, body.user_id);
        return reply.code(created ? 201 : 200).send({ block });
      },
    }),
    defineRoute({
      method: 'delete',
      path: safetyPaths.block,
      operationId: 'unblockUser',
      summary: 'Lift the viewer’s block of a user (no block: nothing changes)',
      params: blockParamsSchema,
      responses: {
        204: { description: 'Not blocked (any more).' },
        ...errors(...pageCallErrors, 422),
      },
      handler: async ({ params, request, reply }, service) => {
        await service.unblock(viewerOf(request).user, params.userId);
        return reply.code(204).send();
      },
    }),
    defineRoute({
      method: 'post',
      path: safetyPaths.reports,
      operationId: 'reportConversation',
      summary:
        'Report the other party of one of the viewer’s conversations (with `block`: also block them); the host hears of it (`report.created`)',
      body: createReportBodySchema,
      responses: {
        201: {
          description:
            'Filed, with a copy of the conversation’s latest 50 messages as they are now.',
          schema: createReportResponseSchema,
        },
        ...errors(...bodyErrors, ...pageCallErrors, 403, 404, 429),
      },
      handler: async ({ body, request, reply }, service) =>
        reply.code(201).send(await service.report(viewerOf(request).user, body)),
    }),
  ],
  async (app, options: { safetyService: SafetyService }) => {
    app.addHook('onRequest', app.requireAppKey);
    app.addHook('onRequest', app.requireViewer);
    return options.safetyService;
  },
);
