import { z } from 'zod';
import {
  credentialsSchema,
  demoAccountsResponseSchema,
  errorResponseSchema,
  getMessageBodySchema,
  getMessageResponseSchema,
  initialDataQuerySchema,
  initialDataResponseSchema,
  loginPageQuerySchema,
  loginResponseSchema,
  messagesPageQuerySchema,
  messengerConfigSchema,
  messengerUserParamsSchema,
  messengerUserResponseSchema,
  paths,
  sendMessageBodySchema,
  sendMessageResponseSchema,
  tokenListResponseSchema,
  tokenRequestSchema,
  tokenResponseSchema,
  uploadAttachmentBodySchema,
  uploadAttachmentResponseSchema,
} from '../../shared/api.js';
import {
  applicationParamsSchema,
  applicationResponseSchema,
  integrationJobResponseSchema,
  integrationRoutes,
  integrationUserResponseSchema,
  jobParamsSchema,
  setApplicationBodySchema,
  ssoQuerySchema,
  unsubscribeQuerySchema,
  startConversationBodySchema,
  startConversationResponseSchema,
  upsertJobBodySchema,
  upsertUserBodySchema,
  userParamsSchema,
  userSettingsPatchSchema,
  userSettingsResponseSchema,
} from '../../shared/integration.js';
import {
  authUserSchema,
  chatSchema,
  jobSchema,
  messageGroupSchema,
  messengerUserSchema,
  receiverSchema,
} from '../../shared/models.js';
import {
  channelAuthBodySchema,
  channelAuthResponseSchema,
  userAuthBodySchema,
  userAuthResponseSchema,
} from '../modules/broadcasting/broadcasting.routes.js';
import { demoImageParamsSchema, staticFileParamsSchema } from '../modules/pages/pages.routes.js';
import { attachmentParamsSchema } from '../modules/attachments/attachments.routes.js';
import { pusherWebhookBodySchema } from '../modules/presence/presence.routes.js';
import { triggerParamsSchema, triggerResponseSchema } from '../realtime/trigger-api.js';
import {
  triggerBatchBodySchema,
  triggerEventBodySchema,
  triggerQuerySchema,
} from '../realtime/trigger-verify.js';

/**
 * The registry of every HTTP operation the server answers: each listed once, with the very zod
 * schemas its route parses with. `openapi-document.ts` turns it into the OpenAPI 3.1 document
 * served at `GET /api/v1/openapi.json`; `openapi.api.test.ts` checks that every registered route is
 * listed here, and the API test harness validates every recorded request and answer against it.
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

export interface OperationSpec {
  method: HttpMethod;
  /** OpenAPI style: `/user/messenger/{id}/archive`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: TagName;
  /** Alternatives (any one suffices); `[]` is public. */
  security: SecurityRequirement[];
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** Media types the body may come as; `application/json` unless told. */
  bodyTypes?: readonly string[];
  responses: Record<number, ResponseSpec>;
  /**
   * Set while the route is being added on another branch: it is documented already, and the
   * route-coverage test does not require it to be registered yet. Remove it once the route lands.
   */
  pending?: string;
}

export const tags = {
  config: 'Runtime configuration for clients.',
  auth: 'Signing in and out, personal access tokens, demo accounts.',
  messenger: 'The messaging page’s calls (contract Part 1).',
  settings: 'The signed-in user’s switches (contract Part 2).',
  broadcasting: 'Signatures for pusher-js subscriptions and user authentication.',
  realtime: 'The embedded Pusher HTTP API (publishing events); absent with a hosted broadcaster.',
  integration: 'Server to server, for the host job board (contract Part 2).',
  pages: 'HTML pages, generated images and the built client’s static files.',
} as const;
export type TagName = keyof typeof tags;

/** The OpenAPI document itself: free-form JSON. */
export const openApiDocumentSchema = z.record(z.string(), z.unknown());

/** Output schemas shown under their own name in `components.schemas` (and referenced by it). */
export const namedSchemas: ReadonlyMap<z.ZodType, string> = new Map<z.ZodType, string>([
  [errorResponseSchema, 'ErrorResponse'],
  [jobSchema, 'Job'],
  [messengerUserSchema, 'MessengerUser'],
  [chatSchema, 'Chat'],
  [receiverSchema, 'Receiver'],
  [authUserSchema, 'AuthUser'],
  [messageGroupSchema, 'MessageGroup'],
  [messengerConfigSchema, 'MessengerConfig'],
  [loginResponseSchema, 'LoginResponse'],
  [tokenResponseSchema, 'TokenResponse'],
  [tokenListResponseSchema, 'TokenListResponse'],
  [demoAccountsResponseSchema, 'DemoAccountsResponse'],
  [initialDataResponseSchema, 'InitialDataResponse'],
  [getMessageResponseSchema, 'GetMessageResponse'],
  [sendMessageResponseSchema, 'SendMessageResponse'],
  [messengerUserResponseSchema, 'MessengerUserResponse'],
  [userSettingsResponseSchema, 'UserSettingsResponse'],
  [channelAuthResponseSchema, 'ChannelAuthResponse'],
  [userAuthResponseSchema, 'UserAuthResponse'],
  [triggerResponseSchema, 'TriggerResponse'],
  [integrationUserResponseSchema, 'IntegrationUserResponse'],
  [integrationJobResponseSchema, 'IntegrationJobResponse'],
  [applicationResponseSchema, 'ApplicationResponse'],
  [startConversationResponseSchema, 'StartConversationResponse'],
  [openApiDocumentSchema, 'OpenApiDocument'],
]);

const retryAfter: Record<string, HeaderSpec> = {
  'Retry-After': {
    description: 'Seconds to wait before trying again.',
    schema: { type: 'integer' },
  },
};
const ERROR_DESCRIPTIONS = {
  400: 'The body is not valid JSON, or not a JSON object.',
  401: 'Not signed in, a bad token, or a missing or wrong key.',
  403: 'Signed in, but not a party to that conversation or channel.',
  404: 'No such resource.',
  409: 'Conflicts with the stored state.',
  413: 'The request body is over the limit.',
  419: 'CSRF token mismatch: a cookie-authenticated change without a matching `X-XSRF-TOKEN`.',
  422: 'Validation failed; `errors` names each field.',
  429: 'Rate limit hit; see `Retry-After`.',
  503: 'The database or broadcaster is unreachable; nothing was half-written.',
} as const;
type ErrorStatus = keyof typeof ERROR_DESCRIPTIONS;

/** The shared `{message, errors?}` answer for each status. */
const errors = (...statuses: ErrorStatus[]): Record<number, ResponseSpec> =>
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

const html = (description: string): ResponseSpec => ({
  description,
  media: { type: 'text/html' },
});
const redirect = (description: string, status: 'see other' | 'found' = 'found'): ResponseSpec => ({
  description: `${description} (${status})`,
  headers: { Location: { description: 'Where to go.', schema: { type: 'string' } } },
});

/** The errors every page call can meet (key/sign-in, CSRF, validation, database). */
const pageCallErrors = [401, 419, 422, 503] as const;
/** The errors of anything with a JSON body (before the route runs). */
const bodyErrors = [400, 413] as const;

/** A page call on one of the viewer's conversations (by id) that answers the conversation. */
const conversationCall = (
  method: HttpMethod,
  path: string,
  operationId: string,
  summary: string,
): OperationSpec => ({
  method,
  path,
  operationId,
  summary,
  tag: 'messenger',
  security: security.pageChange,
  params: messengerUserParamsSchema,
  responses: {
    200: { description: 'The conversation.', schema: messengerUserResponseSchema },
    ...errors(...pageCallErrors, 403, 404),
  },
});

/** The built client's files, served as they are (one route per file under `prefix`). */
const staticFiles = (prefix: string, what: string, idSuffix: string): OperationSpec[] =>
  (['get', 'head'] as const).map((method) => ({
    method,
    path: `${prefix}{file}`,
    operationId: `${method}Static${idSuffix}`,
    summary: `${method === 'head' ? 'Headers of ' : ''}${what} (a file of the built client)`,
    tag: 'pages',
    security: security.public,
    params: staticFileParamsSchema,
    responses: {
      200: { description: 'The file.', media: { type: '*/*', binary: true } },
      404: { description: 'No such file.', schema: errorResponseSchema },
    },
  }));

export const operations: readonly OperationSpec[] = [
  // Configuration
  {
    method: 'get',
    path: paths.config,
    operationId: 'getMessengerConfig',
    summary: 'What a client needs to connect: the application key, locales, the broadcaster',
    tag: 'config',
    security: security.public,
    responses: {
      200: {
        description: 'The configuration (cacheable for 5 minutes).',
        schema: messengerConfigSchema,
      },
    },
  },

  // Signing in
  {
    method: 'post',
    path: paths.login,
    operationId: 'login',
    summary: 'Sign in with e-mail and password (sets the session cookie, rotates the session id)',
    tag: 'auth',
    security: security.login,
    body: credentialsSchema,
    responses: {
      200: { description: 'Signed in.', schema: loginResponseSchema },
      ...errors(...bodyErrors, 401, 419, 422, 429, 503),
    },
  },
  {
    method: 'post',
    path: paths.logout,
    operationId: 'logout',
    summary: 'Sign out: ends the session (or revokes the bearer token used)',
    tag: 'auth',
    security: security.optionalViewer,
    responses: {
      204: { description: 'Signed out.' },
      ...errors(419, 503),
    },
  },
  {
    method: 'post',
    path: paths.tokens,
    operationId: 'issueToken',
    summary: 'Issue a personal access token for a non-browser client',
    tag: 'auth',
    security: security.public,
    body: tokenRequestSchema,
    responses: {
      201: { description: 'The token (shown once; stored hashed).', schema: tokenResponseSchema },
      ...errors(...bodyErrors, 401, 422, 429, 503),
    },
  },
  {
    method: 'get',
    path: paths.tokens,
    operationId: 'listTokens',
    summary: 'The caller’s personal access tokens (never their secrets)',
    tag: 'auth',
    security: security.viewerRead,
    responses: {
      200: { description: 'The tokens.', schema: tokenListResponseSchema },
      ...errors(401, 503),
    },
  },
  {
    method: 'delete',
    path: '/api/tokens/{id}',
    operationId: 'revokeToken',
    summary: 'Revoke one of the caller’s personal access tokens',
    tag: 'auth',
    security: security.viewerChange,
    params: messengerUserParamsSchema,
    responses: {
      204: { description: 'Revoked.' },
      ...errors(401, 404, 419, 422, 503),
    },
  },
  {
    method: 'get',
    path: paths.demoAccounts,
    operationId: 'listDemoAccounts',
    summary: 'The demo accounts the sign-in page offers (demo mode only)',
    tag: 'auth',
    security: security.public,
    responses: {
      200: { description: 'The demo accounts.', schema: demoAccountsResponseSchema },
      ...errors(404, 503),
    },
  },
  {
    method: 'get',
    path: '/sso',
    operationId: 'signInWithLink',
    summary: 'Sign in through a link made by the host site (an HS256 JWT signed with SSO_SECRET)',
    tag: 'auth',
    security: security.public,
    query: ssoQuerySchema,
    responses: {
      303: redirect('Signed in: to `next` (a same-origin path) or `/messages`', 'see other'),
      401: html('The link is invalid or expired (a short page in the user’s language).'),
      ...errors(404),
    },
  },
  {
    method: 'get',
    path: paths.unsubscribe,
    operationId: 'showUnsubscribePage',
    summary: 'The page an e-mail’s unsubscribe link opens: asks before turning e-mails off',
    tag: 'settings',
    security: security.public,
    query: unsubscribeQuerySchema,
    responses: {
      200: html('A confirmation page with a button (in the user’s language).'),
      400: html('The link is invalid.'),
    },
  },
  {
    method: 'post',
    path: paths.unsubscribe,
    operationId: 'unsubscribeOneClick',
    summary:
      'One-click unsubscribe (RFC 8058): turns the token’s user’s e-mail notifications off, without a session',
    tag: 'settings',
    security: security.public,
    query: unsubscribeQuerySchema,
    responses: {
      200: html('E-mail notifications are off (a page in the user’s language, with an undo).'),
      400: html('The link is invalid.'),
    },
  },
  {
    method: 'post',
    path: paths.resubscribe,
    operationId: 'undoUnsubscribe',
    summary:
      'Undoes an unsubscribe: turns the token’s user’s e-mail notifications back on, without a session. Only with the undo’s own token, valid for an hour, that the unsubscribe page gives (never the e-mail’s unsubscribe token)',
    tag: 'settings',
    security: security.public,
    query: unsubscribeQuerySchema,
    responses: {
      200: html('E-mail notifications are on again (a page in the user’s language).'),
      400: html('The link has expired (or is not an undo token).'),
    },
  },

  // The page's calls
  {
    method: 'get',
    path: paths.initialData,
    operationId: 'getInitialData',
    summary:
      'The job filter, the viewer’s conversations (all of them, or a page with `limit`) and who the viewer is',
    tag: 'messenger',
    security: security.pageRead,
    query: initialDataQuerySchema,
    responses: {
      200: {
        description:
          'Jobs, conversations (newest activity first), viewer, `unread_total` and `archived_count` ' +
          '(over all the viewer’s conversations). With `limit`: at most that many conversations and ' +
          '`next_cursor` (pass it as `cursor` for the next page; `null` on the last). The pages of ' +
          'one walk keep the order the list had at its first page: none is skipped or repeated.',
        schema: initialDataResponseSchema,
      },
      ...errors(...pageCallErrors),
    },
  },
  {
    method: 'post',
    path: paths.getMessage,
    operationId: 'getMessages',
    summary: 'Open a conversation: its messages (paged back with `before`), marking them seen',
    tag: 'messenger',
    security: security.pageChange,
    body: getMessageBodySchema,
    responses: {
      200: { description: 'The conversation and its messages.', schema: getMessageResponseSchema },
      ...errors(...bodyErrors, ...pageCallErrors, 404),
    },
  },
  {
    method: 'post',
    path: paths.sendMessage,
    operationId: 'sendMessage',
    summary: 'Send a message (once per `client_id`), then broadcast it',
    tag: 'messenger',
    security: security.pageChange,
    body: sendMessageBodySchema,
    responses: {
      200: { description: 'The stored message.', schema: sendMessageResponseSchema },
      ...errors(...bodyErrors, ...pageCallErrors, 403, 404, 429),
    },
  },
  conversationCall(
    'get',
    '/user/send/message/unseen/{id}',
    'markSeen',
    'Mark the viewer’s unread messages of a conversation as seen (needs the CSRF header)',
  ),
  conversationCall(
    'post',
    '/user/messenger/{id}/archive',
    'archiveConversation',
    'Archive a conversation (the viewer’s own flag)',
  ),
  {
    method: 'post',
    path: '/user/messenger/{id}/typing',
    operationId: 'typing',
    summary: 'Tell the other party that the viewer is typing (at most one broadcast every 2 s)',
    tag: 'messenger',
    security: security.pageChange,
    params: messengerUserParamsSchema,
    responses: {
      204: { description: 'Told (or coalesced with a call less than 2 s before).' },
      ...errors(...pageCallErrors, 403, 404),
    },
  },
  conversationCall(
    'post',
    '/user/messenger/{id}/unarchive',
    'unarchiveConversation',
    'Return an archived conversation to the active list (the viewer’s own flag)',
  ),

  // Settings
  {
    method: 'get',
    path: '/user/settings',
    operationId: 'getUserSettings',
    summary: 'The viewer’s settings',
    tag: 'settings',
    security: security.pageRead,
    responses: {
      200: { description: 'The settings.', schema: userSettingsResponseSchema },
      ...errors(...pageCallErrors),
    },
  },
  {
    method: 'patch',
    path: '/user/settings',
    operationId: 'updateUserSettings',
    summary: 'Change any subset of the viewer’s settings',
    tag: 'settings',
    security: security.pageChange,
    body: userSettingsPatchSchema,
    responses: {
      200: { description: 'The updated settings.', schema: userSettingsResponseSchema },
      ...errors(...bodyErrors, ...pageCallErrors),
    },
  },

  // Attachments
  {
    method: 'post',
    path: paths.attachments,
    operationId: 'uploadAttachment',
    summary:
      'Upload one file (multipart field `file`, at most 10 MiB; PDF, DOC/DOCX, ODT, RTF, TXT, PNG, JPEG, WEBP, GIF judged from its bytes)',
    tag: 'messenger',
    security: security.pageChange,
    body: uploadAttachmentBodySchema,
    bodyTypes: ['multipart/form-data'],
    responses: {
      201: { description: 'Stored, not yet sent.', schema: uploadAttachmentResponseSchema },
      ...errors(...pageCallErrors, 413, 429),
    },
  },
  ...(['file', 'thumbnail'] as const).map((variant): OperationSpec => ({
    method: 'get',
    path: variant === 'file' ? '/user/attachments/{id}' : '/user/attachments/{id}/thumbnail',
    operationId: variant === 'file' ? 'downloadAttachment' : 'downloadAttachmentThumbnail',
    summary:
      variant === 'file'
        ? 'An attachment, for its uploader or the two parties of its message (inline for images)'
        : 'The thumbnail of an image attachment (WEBP, at most 480 px on the long side)',
    tag: 'messenger',
    security: security.viewerRead,
    params: attachmentParamsSchema,
    responses: {
      200: { description: 'The bytes.', media: { type: '*/*', binary: true } },
      302: redirect('S3 storage: to a presigned address valid for at most 5 minutes'),
      ...errors(401, 403, 404, 422, 503),
    },
  })),

  // Broadcasting
  {
    method: 'post',
    path: paths.broadcastingAuth,
    operationId: 'authorizeChannel',
    summary: 'Sign a subscription to the caller’s own `private-chat.{id}` channel',
    tag: 'broadcasting',
    security: security.viewerChange,
    body: channelAuthBodySchema,
    bodyTypes: ['application/json', 'application/x-www-form-urlencoded'],
    responses: {
      200: { description: 'The signature pusher-js expects.', schema: channelAuthResponseSchema },
      ...errors(...bodyErrors, 401, 403, 419, 422, 503),
    },
  },
  {
    method: 'post',
    path: paths.broadcastingUserAuth,
    operationId: 'authenticateUser',
    summary: 'Sign user authentication for pusher-js',
    tag: 'broadcasting',
    security: security.viewerChange,
    body: userAuthBodySchema,
    bodyTypes: ['application/json', 'application/x-www-form-urlencoded'],
    responses: {
      200: { description: 'The signature pusher-js expects.', schema: userAuthResponseSchema },
      ...errors(...bodyErrors, 401, 419, 422, 503),
    },
  },

  {
    method: 'post',
    path: paths.pusherWebhook,
    operationId: 'pusherWebhook',
    summary:
      'With a hosted Pusher only (404 otherwise): its signed `channel_occupied`/`channel_vacated` webhooks, which feed presence',
    tag: 'broadcasting',
    security: security.pusherWebhook,
    body: pusherWebhookBodySchema,
    responses: {
      200: { description: 'Taken into account.', schema: z.object({}) },
      ...errors(401, 404, 413, 422),
    },
  },

  // The embedded endpoint's Pusher HTTP API
  {
    method: 'post',
    path: '/apps/{appId}/events',
    operationId: 'triggerEvent',
    summary: 'Publish one event to one or more channels (Pusher HTTP API)',
    tag: 'realtime',
    security: security.pusher,
    params: triggerParamsSchema,
    query: triggerQuerySchema,
    body: triggerEventBodySchema,
    responses: {
      200: { description: 'Handed to the broadcaster.', schema: triggerResponseSchema },
      ...errors(400, 401, 404, 413, 429, 503),
    },
  },
  {
    method: 'post',
    path: '/apps/{appId}/batch_events',
    operationId: 'triggerBatchEvents',
    summary: 'Publish up to 10 events (Pusher HTTP API)',
    tag: 'realtime',
    security: security.pusher,
    params: triggerParamsSchema,
    query: triggerQuerySchema,
    body: triggerBatchBodySchema,
    responses: {
      200: { description: 'Handed to the broadcaster.', schema: triggerResponseSchema },
      ...errors(400, 401, 404, 413, 429, 503),
    },
  },

  // Integration API
  {
    method: 'put',
    path: '/api/v1/users/{externalId}',
    operationId: 'upsertUser',
    summary: 'Create or update a user by the host’s id',
    tag: 'integration',
    security: security.integration,
    params: userParamsSchema,
    body: upsertUserBodySchema,
    responses: {
      200: { description: 'Updated.', schema: integrationUserResponseSchema },
      201: { description: 'Created.', schema: integrationUserResponseSchema },
      ...errors(...bodyErrors, 401, 404, 409, 422, 503),
    },
  },
  {
    method: 'get',
    path: '/api/v1/users/{externalId}',
    operationId: 'getUser',
    summary: 'A user by the host’s id',
    tag: 'integration',
    security: security.integration,
    params: userParamsSchema,
    responses: {
      200: { description: 'The user.', schema: integrationUserResponseSchema },
      ...errors(401, 404, 422, 503),
    },
  },
  {
    method: 'delete',
    path: '/api/v1/users/{externalId}',
    operationId: 'eraseUser',
    summary: 'Erase a user (sessions, tokens, sockets end; messages stay for the other party)',
    tag: 'integration',
    security: security.integration,
    params: userParamsSchema,
    responses: {
      204: { description: 'Erased.' },
      ...errors(401, 404, 422, 503),
    },
  },
  {
    method: 'put',
    path: '/api/v1/jobs/{externalId}',
    operationId: 'upsertJob',
    summary: 'Create or update a job by the host’s id',
    tag: 'integration',
    security: security.integration,
    params: jobParamsSchema,
    body: upsertJobBodySchema,
    responses: {
      200: { description: 'Updated.', schema: integrationJobResponseSchema },
      201: { description: 'Created.', schema: integrationJobResponseSchema },
      ...errors(...bodyErrors, 401, 404, 422, 503),
    },
  },
  {
    method: 'put',
    path: '/api/v1/jobs/{jobExternalId}/applications/{candidateExternalId}',
    operationId: 'setApplication',
    summary: 'Set the group of a candidate’s application to a job',
    tag: 'integration',
    security: security.integration,
    params: applicationParamsSchema,
    body: setApplicationBodySchema,
    responses: {
      200: { description: 'The application.', schema: applicationResponseSchema },
      ...errors(...bodyErrors, 401, 404, 422, 503),
    },
  },
  {
    method: 'post',
    path: integrationRoutes.conversations,
    operationId: 'startConversation',
    summary: 'Start (or find) a conversation, optionally with a first message',
    tag: 'integration',
    security: security.integration,
    body: startConversationBodySchema,
    responses: {
      200: { description: 'Already there.', schema: startConversationResponseSchema },
      201: { description: 'Created.', schema: startConversationResponseSchema },
      ...errors(...bodyErrors, 401, 404, 422, 429, 503),
    },
  },
  {
    method: 'get',
    path: integrationRoutes.openapi,
    operationId: 'getOpenApiDocument',
    summary: 'This document: the integration API and the page’s calls (OpenAPI 3.1)',
    tag: 'integration',
    security: security.public,
    responses: {
      200: { description: 'The OpenAPI document.', schema: openApiDocumentSchema },
    },
  },

  // Pages
  {
    method: 'get',
    path: '/',
    operationId: 'home',
    summary: 'Redirects to the messaging page',
    tag: 'pages',
    security: security.public,
    responses: { 302: redirect('To `/messages`') },
  },
  {
    method: 'get',
    path: '/messages',
    operationId: 'messagesPage',
    summary: 'The messaging page (sets the `XSRF-TOKEN` cookie)',
    tag: 'pages',
    security: security.optionalSession,
    query: messagesPageQuerySchema,
    responses: {
      200: html('The page.'),
      302: redirect('Not signed in: to `/login?next=…`'),
      ...errors(503),
    },
  },
  {
    method: 'get',
    path: paths.login,
    operationId: 'loginPage',
    summary: 'The sign-in page (sets the `XSRF-TOKEN` cookie)',
    tag: 'pages',
    security: security.optionalSession,
    query: loginPageQuerySchema,
    responses: {
      200: html('The page.'),
      ...errors(503),
    },
  },
  {
    method: 'get',
    path: '/images/{kind}/{file}',
    operationId: 'demoImage',
    summary: 'A generated demo logo or photo',
    tag: 'pages',
    security: security.public,
    params: demoImageParamsSchema,
    responses: {
      200: { description: 'The image.', media: { type: 'image/svg+xml' } },
      ...errors(404),
    },
  },
  ...staticFiles('/', 'A top-level file (favicon.svg, index.html, login.html)', 'File'),
  ...staticFiles('/assets/', 'A script or style sheet', 'Asset'),
  ...staticFiles('/lang/', 'A translation file', 'Translation'),
  ...staticFiles('/sounds/', 'A sound', 'Sound'),
];
