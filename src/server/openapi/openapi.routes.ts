import { z } from 'zod';
import { integrationPaths } from '../../shared/integration.js';
import { defineRouteFor, documentedOnly, routesPlugin } from '../http/route.js';
import {
  apiReferenceAssetParamsSchema,
  apiReferencePaths,
  createApiReference,
} from './api-reference.js';
import { HttpError } from '../lib/http-error.js';
import { errors, html, security } from './vocabulary.js';

/** The OpenAPI document itself: free-form JSON. */
export const openApiDocumentSchema = z.record(z.string(), z.unknown());

type Deps = { body: string; apiReference: ReturnType<typeof createApiReference> };

const defineRoute = defineRouteFor<Deps>({
  tag: 'integration',
  security: security.public,
});
const definePageRoute = defineRouteFor<Deps>({ tag: 'pages', security: security.public });

/**
 * The reference page's policy: the server's own (scripts and styles from this origin only, no
 * framing by others), with the document fetched from this origin.
 */
export const API_REFERENCE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join('; ');

/**
 * `GET /api/v1/openapi.json`: public (it documents, it exposes no data), outside the integration
 * API's key check, and served whether or not INTEGRATION_KEYS is set. `GET /api/docs`: the same
 * document as a readable page (Swagger UI, served from here).
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
    definePageRoute({
      method: 'get',
      path: apiReferencePaths.page,
      operationId: 'apiReferencePage',
      summary: 'The API reference: this document as a readable page',
      description:
        'Every operation, parameter and field of this document, rendered by Swagger UI in the browser. Public, like the document; every file it loads comes from this server.',
      responses: { 200: html('The page.') },
      handler: async ({ reply }, { apiReference }) =>
        reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'public, max-age=300')
          .header('content-security-policy', API_REFERENCE_CSP)
          .send(apiReference.page),
    }),
    definePageRoute({
      method: 'get',
      path: apiReferencePaths.asset,
      operationId: 'apiReferenceAsset',
      summary: 'A file of the API reference page',
      description:
        'Swagger UI’s script and style sheet (from the `swagger-ui-dist` package installed with the server) and the page’s own start-up script and style.',
      // a name that is not one of the page's files is not found (404), not invalid
      params: documentedOnly(apiReferenceAssetParamsSchema),
      responses: {
        200: { description: 'The file.', media: { type: '*/*', binary: true } },
        ...errors(404),
      },
      handler: async ({ params, reply }, { apiReference }) => {
        const parsed = apiReferenceAssetParamsSchema.safeParse(params);
        const file = parsed.success ? apiReference.file(parsed.data.file) : undefined;
        if (!file) throw new HttpError(404, 'Not found.');
        return reply
          .type(file.type)
          .header('cache-control', 'public, max-age=3600')
          .send(file.body);
      },
    }),
  ],
  async (_app, options: { document: object; siteName: string }) => ({
    body: JSON.stringify(options.document),
    apiReference: createApiReference(options.siteName),
  }),
);
