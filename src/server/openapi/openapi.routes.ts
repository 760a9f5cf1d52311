import { z } from 'zod';
import { integrationPaths } from '../../shared/integration.js';
import { defineRouteFor, routesPlugin } from '../http/route.js';
import { security } from './vocabulary.js';

/** The OpenAPI document itself: free-form JSON. */
export const openApiDocumentSchema = z.record(z.string(), z.unknown());

const defineRoute = defineRouteFor<{ body: string }>({
  tag: 'integration',
  security: security.public,
});

/**
 * `GET /api/v1/openapi.json`: public (it documents, it exposes no data), outside the integration
 * API's key check, and served whether or not INTEGRATION_KEYS is set.
 */
export const openApiRoutes = routesPlugin(
  [
    defineRoute({
      method: 'get',
      path: integrationPaths.openapi,
      operationId: 'getOpenApiDocument',
      summary: 'This document: the integration API and the page’s calls (OpenAPI 3.1)',
      description:
        'This document, public and cacheable for 5 minutes, served whether or not the integration API is on. Feed it to a client generator; `/api/docs` shows it as a readable reference.',
      responses: {
        200: { description: 'The OpenAPI document.', schema: openApiDocumentSchema },
      },
      handler: async ({ reply }, { body }) =>
        reply
          .type('application/json; charset=utf-8')
          .header('cache-control', 'public, max-age=300')
          .send(body),
    }),
  ],
  async (_app, options: { document: object }) => ({ body: JSON.stringify(options.document) }),
);
