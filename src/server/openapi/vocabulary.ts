import { errorResponseSchema } from '../../shared/api-fields.js';
import type { z } from 'zod';

/**
 * What route declarations say about themselves in the OpenAPI document, shared by every module:
 * the security schemes and the usual combinations of them, the tags, and the answers many routes
 * give (the `{message, errors?}` errors, HTML pages, redirects).
 */

export type HttpMethod = 'get' | 'head' | 'post' | 'put' | 'patch' | 'delete';

export const securitySchemes = {
  appKey: {
    type: 'apiKey',
    in: 'query',
    name: 'key',
    description:
      'The application key from `GET /messenger/config`; every messaging call carries it.',
  },
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'messenger_session',
    description: 'The httpOnly session cookie set by `POST /login`.',
  },
  xsrfToken: {
    type: 'apiKey',
    in: 'header',
    name: 'X-XSRF-TOKEN',
    description:
      'The value of the `XSRF-TOKEN` cookie (or `X-CSRF-TOKEN` with the page’s `csrf-token` meta value): required for a cookie-authenticated change, for `POST /login`, and for the unseen call.',
  },
  personalAccessToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'A personal access token from `POST /api/tokens` (`Authorization: Bearer …`).',
  },
  personalAccessTokenQuery: {
    type: 'apiKey',
    in: 'query',
    name: 'token',
    description: 'A personal access token as the `token` query parameter (empty in the browser).',
  },
  integrationKey: {
    type: 'http',
    scheme: 'bearer',
    description: 'One of `INTEGRATION_KEYS` (`Authorization: Bearer …`): the integration API.',
  },
  pusherSignature: {
    type: 'apiKey',
    in: 'query',
    name: 'auth_signature',
    description:
      'Pusher HTTP API signature: HMAC-SHA256 of the method, path and sorted query, keyed with the broadcaster secret.',
  },
  pusherWebhookSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Pusher-Signature',
    description:
      'A hosted Pusher’s webhook signature: HMAC-SHA256 (hex) of the body, keyed with the app secret; `X-Pusher-Key` names the app key.',
  },
} as const;

export type SecurityName = keyof typeof securitySchemes;
/** One way to authenticate: all of these together. An empty list: anonymous is fine. */
export type SecurityRequirement = readonly SecurityName[];

const viewer = (...extra: SecurityName[]): SecurityRequirement[] => [
  ['sessionCookie', ...extra],
  ['personalAccessToken'],
  ['personalAccessTokenQuery'],
];
const withAppKey = (requirements: SecurityRequirement[]): SecurityRequirement[] =>
  requirements.map((requirement) => ['appKey', ...requirement]);

export const security = {
  public: [] as SecurityRequirement[],
  /** A page call that reads: key + session (or token). */
  pageRead: withAppKey(viewer()),
  /** A page call that changes state: key + session + CSRF header (or token). */
  pageChange: withAppKey(viewer('xsrfToken')),
  viewerRead: viewer(),
  viewerChange: viewer('xsrfToken'),
  /** Signed in or not. */
  optionalViewer: [...viewer('xsrfToken'), []] as SecurityRequirement[],
  optionalSession: [['sessionCookie'], []] as SecurityRequirement[],
  login: [['xsrfToken']] as SecurityRequirement[],
  integration: [['integrationKey']] as SecurityRequirement[],
  pusher: [['pusherSignature']] as SecurityRequirement[],
  pusherWebhook: [['pusherWebhookSignature']] as SecurityRequirement[],
};

export const tags = {
  config: 'Runtime configuration for clients.',
  operations: 'Liveness and readiness, for load balancers and orchestrators.',
  auth: 'Signing in and out, personal access tokens, demo accounts.',
  messenger: 'The messaging page’s calls.',
  settings: 'The signed-in user’s switches.',
  safety: 'Blocking conversation partners and reporting conversations.',
  templates: 'The signed-in user’s saved replies.',
  broadcasting: 'Signatures for pusher-js subscriptions and user authentication.',
  realtime: 'The embedded Pusher HTTP API (publishing events); absent with a hosted broadcaster.',
  integration: 'Server to server, for the host job board.',
  pages: 'HTML pages, generated images and the built client’s static files.',
} as const;
export type TagName = keyof typeof tags;

export interface HeaderSpec {
  description: string;
  schema: { type: 'string' | 'integer' };
}

export interface ResponseSpec {
  description: string;
  /** A JSON body (`application/json`). */
  schema?: z.ZodType;
  /** A body of another kind. `binary`: any bytes (`format: binary`); otherwise text. */
  media?: { type: string; binary?: boolean };
  headers?: Record<string, HeaderSpec>;
}

const retryAfter: Record<string, HeaderSpec> = {
  'Retry-After': {
    description: 'Seconds to wait before trying again.',
    schema: { type: 'integer' },
  },
};
const ERROR_DESCRIPTIONS = {
  400: 'The body is not valid JSON, or not a JSON object.',
  401: 'Not signed in, a bad token, or a missing or wrong key.',
  403: 'Signed in, but not a party to that conversation or channel; or a write refused: the account is suspended, or the other party is not accepting the viewer’s messages.',
  404: 'No such resource.',
  409: 'Conflicts with the stored state.',
  413: 'The request body is over the limit.',
  419: 'CSRF token mismatch: a cookie-authenticated change without a matching `X-XSRF-TOKEN`.',
  422: 'Validation failed; `errors` names each field.',
  429: 'Rate limit hit; see `Retry-After`.',
  503: 'The database or broadcaster is unreachable; nothing was half-written.',
} as const;
export type ErrorStatus = keyof typeof ERROR_DESCRIPTIONS;

/** The shared `{message, errors?}` answer for each status. */
export const errors = (...statuses: ErrorStatus[]): Record<number, ResponseSpec> =>
  Object.fromEntries(
    statuses.map((status) => [
      status,
      {
        description: ERROR_DESCRIPTIONS[status],
        schema: errorResponseSchema,
        ...(status === 429 || status === 503 ? { headers: retryAfter } : {}),
      },
    ]),
  );

export const html = (description: string): ResponseSpec => ({
  description,
  media: { type: 'text/html' },
});
export const redirect = (
  description: string,
  status: 'see other' | 'found' = 'found',
): ResponseSpec => ({
  description: `${description} (${status})`,
  headers: { Location: { description: 'Where to go.', schema: { type: 'string' } } },
});

/** The errors every page call can meet (key/sign-in, CSRF, validation, database). */
export const pageCallErrors = [401, 419, 422, 503] as const;
/** The errors of anything with a JSON body (before the route runs). */
export const bodyErrors = [400, 413] as const;
