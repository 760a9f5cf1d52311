import type { FastifyInstance } from 'fastify';
import { integrationRoutes } from '../../shared/integration.js';
import type { OpenApiDocument } from './openapi-document.js';

/**
 * `GET /api/v1/openapi.json`: public (it documents, it exposes no data), outside the integration
 * API's key check, and served whether or not INTEGRATION_KEYS is set.
 */
export const openApiRoutes = async (
  app: FastifyInstance,
  options: { document: OpenApiDocument },
) => {
  const body = JSON.stringify(options.document);
  app.get(integrationRoutes.openapi, async (_request, reply) =>
    reply
      .type('application/json; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .send(body),
  );
};
