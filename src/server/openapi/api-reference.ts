import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { integrationPaths } from '../../shared/integration.js';
import { pathTemplate } from '../../shared/paths.js';
import { escapeHtml } from '../lib/html.js';
import { brandedTitle } from '../lib/static-page.js';

/**
 * The API reference page: the OpenAPI document shown by Swagger UI (`swagger-ui-dist`, from the
 * npm registry), every file served by this server (no CDN). The page holds no inline script: its
 * own start-up script is a file too, so the page runs under a CSP without `'unsafe-inline'` for
 * scripts.
 */
export const apiReferencePaths = {
  page: '/api/docs',
  asset: pathTemplate('/api/docs/:file'),
} as const;

/** The start-up script: Swagger UI on the document, read-only (no "Try it out"), no outside calls. */
const START_SCRIPT = `'use strict';
window.addEventListener('DOMContentLoaded', function () {
  window.SwaggerUIBundle({
    url: document.documentElement.getAttribute('data-openapi'),
    dom_id: '#reference',
    deepLinking: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    defaultModelExpandDepth: 3,
    displayOperationId: false,
    filter: true,
    supportedSubmitMethods: [],
    validatorUrl: null,
  });
});
`;

/** A few rules of our own over Swagger UI's style sheet. */
const PAGE_STYLE = `body { margin: 0; background: #fafafa; }
.reference-intro { max-width: 1460px; margin: 0 auto; padding: 16px 20px 0; font-family: sans-serif; color: #3b4151; }
.reference-intro a { color: #1d4ed8; }
`;

const SWAGGER_UI_FILES = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
} as const;

export const API_REFERENCE_ASSETS = [
  ...(Object.keys(SWAGGER_UI_FILES) as (keyof typeof SWAGGER_UI_FILES)[]),
  'reference.js',
  'reference.css',
] as const;
export type ApiReferenceAsset = (typeof API_REFERENCE_ASSETS)[number];

export const apiReferenceAssetParamsSchema = z.object({
  file: z
    .enum(API_REFERENCE_ASSETS)
    .describe(
      'One of the page’s files: Swagger UI’s script and style sheet, and the page’s own start-up script and style.',
    ),
});

export interface ApiReferenceFile {
  type: string;
  body: Buffer | string;
}

const swaggerUiFolder = (): string =>
  dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/**
 * The page and its files, read once (Swagger UI's files from the installed package); the page is
 * titled `API reference · <SITE_NAME>` like every page the server renders.
 */
export const createApiReference = (siteName: string) => {
  const folder = swaggerUiFolder();
  const files = new Map<ApiReferenceAsset, ApiReferenceFile>([
    ...Object.entries(SWAGGER_UI_FILES).map(
      ([name, type]) =>
        [name as ApiReferenceAsset, { type, body: readFileSync(join(folder, name)) }] as const,
    ),
    ['reference.js', { type: 'text/javascript; charset=utf-8', body: START_SCRIPT }],
    ['reference.css', { type: 'text/css; charset=utf-8', body: PAGE_STYLE }],
  ]);
  const asset = (name: ApiReferenceAsset) => apiReferencePaths.asset(name);
  const page = `<!doctype html>
<html lang="en" data-openapi="${integrationPaths.openapi}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(brandedTitle('API reference', { siteName }))}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${asset('swagger-ui.css')}">
<link rel="stylesheet" href="${asset('reference.css')}">
<script src="${asset('swagger-ui-bundle.js')}" defer></script>
<script src="${asset('reference.js')}" defer></script>
</head>
<body>
<main>
<p class="reference-intro">Every operation of the messenger’s HTTP API: the integration API for the host job board (<code>/api/v1</code>, with a key of <code>INTEGRATION_KEYS</code>), the messaging page’s calls, sign-in and the live events’ signatures. The same document as JSON: <a href="${integrationPaths.openapi}">${integrationPaths.openapi}</a>.</p>
<div id="reference"><noscript>The reference needs JavaScript; the document itself is at <a href="${integrationPaths.openapi}">${integrationPaths.openapi}</a>.</noscript></div>
</main>
</body>
</html>
`;
  return { page, file: (name: ApiReferenceAsset) => files.get(name) };
};
