import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  applicationParamsSchema,
  applicationResponseSchema,
  integrationJobResponseSchema,
  integrationPaths,
  integrationUserResponseSchema,
  jobParamsSchema,
  setApplicationBodySchema,
  startConversationBodySchema,
  startConversationResponseSchema,
  upsertJobBodySchema,
  upsertUserBodySchema,
  userParamsSchema,
  userUnreadResponseSchema,
} from '../../../shared/integration.js';
import {
  moderationPaths,
  reportParamsSchema,
  reportResponseSchema,
  reportsQuerySchema,
  reportsResponseSchema,
  updateReportBodySchema,
} from '../../../shared/safety.js';
import { safeEqual, sha256 } from '../../lib/crypto.js';
import { HttpError, notFound } from '../../lib/http-error.js';
import { defineRouteFor, routesPlugin } from '../../http/route.js';
import { errors, security } from '../../openapi/vocabulary.js';
import type { SafetyService } from '../safety/safety.service.js';
import type { IntegrationService } from './integration.service.js';

/** The key the request presents (`Authorization: Bearer <key>`), if any. */
const presentedKey = (request: FastifyRequest): string | undefined =>
  /^Bearer ([^\s]+)$/.exec(request.headers.authorization ?? '')?.[1];

/**
 * Names the (already checked) key of the request without its secret: the first 16 hex digits of
 * its SHA-256, what the host's own limits are kept under.
 */
const keyFingerprint = (request: FastifyRequest): string =>
  sha256(presentedKey(request) ?? '').slice(0, 16);

/** True when the request carries `Authorization: Bearer <one of the keys>` (each compared in constant time). */
const hasIntegrationKey = (request: FastifyRequest, keys: readonly string[]): boolean => {
  const presented = presentedKey(request);
  if (!presented) return false;
  // every key is compared, so the time taken does not say which one (or how many) exist
  let found = false;
  for (const key of keys) found = safeEqual(presented, key) || found;
  return found;
};

interface IntegrationRoutesOptions {
  integrationService: IntegrationService;
  /** The reports people file, which the host reviews and resolves or dismisses. */
  safetyService: SafetyService;
  /** INTEGRATION_KEYS; none: the API is off. */
  keys: readonly string[];
}

const defineRoute = defineRouteFor<IntegrationRoutesOptions>({
  tag: 'integration',
  security: security.integration,
  // a missing or wrong key, the API off or no such resource, invalid input, the database down
  errors: [401, 404, 422, 503],
});

/** 201 when the call created what it names, 200 when it was there already: documented… */
const createdOrUpdated = (schema: z.ZodType, updated = 'Updated.') => ({
  200: { description: updated, schema },
  201: { description: 'Created.', schema },
});
/** …and answered. */
const sendCreatedOrUpdated = (reply: FastifyReply, created: boolean, answer: unknown) =>
  reply.status(created ? 201 : 200).send(answer);

/**
 * The integration API (server to server): Bearer key, no cookies, no CSRF, no `key` parameter.
 * Without INTEGRATION_KEYS every path answers 404 (the API is off).
 */
export const integrationRoutes = routesPlugin(
  [
    defineRoute({
      method: 'put',
      path: integrationPaths.user,
      operationId: 'upsertUser',
      summary: 'Create or update a user by the host’s id',
      description:
        'Creates the user the first time (201) and updates them afterwards (200): role, name, e-mail address, picture, language, settings and suspension. The path’s id is yours; the answer carries the messenger’s own `id`. Idempotent: sending it again changes nothing twice. A role change of a user who has conversations is a 409; an e-mail address another user has is a 422; an erased user is a 409.',
      params: userParamsSchema,
      body: upsertUserBodySchema,
      responses: { ...createdOrUpdated(integrationUserResponseSchema), ...errors(409) },
      handler: async ({ params, body, reply }, { integrationService }) => {
        const { created, user } = await integrationService.upsertUser(params.externalId, body);
        return sendCreatedOrUpdated(reply, created, { user });
      },
    }),
    defineRoute({
      method: 'get',
      path: integrationPaths.user,
      operationId: 'getUser',
      summary: 'A user by the host’s id',
      description:
        'The user as the messenger holds them, by your id; an unknown or erased user is a 404.',
      params: userParamsSchema,
      responses: { 200: { description: 'The user.', schema: integrationUserResponseSchema } },
      handler: async ({ params }, { integrationService }) => ({
        user: await integrationService.getUser(params.externalId),
      }),
    }),
    defineRoute({
      method: 'get',
      path: integrationPaths.userUnread,
      operationId: 'getUserUnread',
      summary: 'A user’s unread total, for your own header',
      description:
        'How many messages the user has not read, over all their conversations (archived ones included): the total their messaging page shows. For a badge in your site’s header, asked server-side; an unknown or erased user is a 404.',
      params: userParamsSchema,
      responses: {
        200: { description: 'The unread total.', schema: userUnreadResponseSchema },
      },
      handler: async ({ params }, { integrationService }) =>
        integrationService.userUnread(params.externalId),
    }),
    defineRoute({
      method: 'delete',
      path: integrationPaths.user,
      operationId: 'eraseUser',
      summary: 'Erase a user (sessions, tokens, sockets end; messages stay for the other party)',
      description:
        'Erases the user at once on every instance: their sessions, tokens and live sockets end; their e-mail address, password, photo and settings are removed; their name becomes "Deleted user". Their messages stay readable for the other party, but their conversations take no new messages (`closed: true`). They can never come back: a later `PUT` of the same id is a 409. Erasing again answers 204.',
      params: userParamsSchema,
      responses: { 204: { description: 'Erased.' } },
      handler: async ({ params, reply }, { integrationService }) => {
        await integrationService.eraseUser(params.externalId);
        return reply.status(204).send();
      },
    }),
    defineRoute({
      method: 'put',
      path: integrationPaths.job,
      operationId: 'upsertJob',
      summary: 'Create or update a job by the host’s id',
      description:
        'Creates the job the first time (201) and updates it afterwards (200). `company` names the company (your id) that posts it; an unknown company is a 422. Conversations may then be about this job.',
      params: jobParamsSchema,
      body: upsertJobBodySchema,
      responses: createdOrUpdated(integrationJobResponseSchema),
      handler: async ({ params, body, reply }, { integrationService }) => {
        const { created, job } = await integrationService.upsertJob(params.externalId, body);
        return sendCreatedOrUpdated(reply, created, { job });
      },
    }),
    defineRoute({
      method: 'put',
      path: integrationPaths.application,
      operationId: 'setApplication',
      summary: 'Set the group of a candidate’s application to a job',
      description:
        'Records the group your site files the candidate’s application under (e.g. `Shortlist`). The company sees it in the chat header of its conversation with that candidate about that job. Unknown job or candidate: 422.',
      params: applicationParamsSchema,
      body: setApplicationBodySchema,
      responses: { 200: { description: 'The application.', schema: applicationResponseSchema } },
      handler: async ({ params, body }, { integrationService }) =>
        integrationService.setApplication(
          params.jobExternalId,
          params.candidateExternalId,
          body.group,
        ),
    }),
    defineRoute({
      method: 'post',
      path: integrationPaths.conversations,
      operationId: 'startConversation',
      summary: 'Start (or find) a conversation, optionally with a first message',
      description:
        'What a "Message the candidate" button on a job page calls: starts the conversation between the company and the candidate (about the job, or about no job) or finds the one already there (201 new, 200 found), optionally sending a first message from either side, which is stored and delivered live as if sent from the page. A repeated call sends no second message (`client_id`). Host messages have their own limit, HOST_SEND_RATE_PER_SECOND per key (429 with `Retry-After` beyond it), not the users’ send limits. The answer’s `company_url` and `candidate_url` open the conversation for each side: send people there through a sign-in link. A first message from a suspended user, or toward someone who blocked the sender, is a 403 (the conversation still exists).',
      body: startConversationBodySchema,
      responses: {
        ...createdOrUpdated(startConversationResponseSchema, 'Already there.'),
        // 403: the first message was refused (its sender is suspended, or blocked by the other
        // party); the conversation itself is there
        ...errors(403, 429),
      },
      handler: async ({ body, reply, request }, { integrationService }) => {
        const { created, response } = await integrationService.startConversation(body, {
          key: keyFingerprint(request),
        });
        return sendCreatedOrUpdated(reply, created, response);
      },
    }),
    defineRoute({
      method: 'get',
      path: moderationPaths.reports,
      operationId: 'listReports',
      summary: 'The reports people filed, newest first (by `status` or all), a page at a time',
      description:
        'The moderation queue: reports people filed about the other party of a conversation, each with a copy of the conversation’s latest messages as they were when filed. Newest first, 50 a page; pass `next_cursor` back as `cursor` until it is null.',
      query: reportsQuerySchema,
      responses: {
        200: {
          description:
            'At most 50 reports, each with the conversation’s latest messages as they were when reported; `next_cursor` (pass it as `cursor`) for the next page, `null` on the last.',
          schema: reportsResponseSchema,
        },
      },
      handler: async ({ query }, { safetyService }) => safetyService.listReports(query),
    }),
    defineRoute({
      method: 'patch',
      path: moderationPaths.report,
      operationId: 'updateReport',
      summary: 'Resolve or dismiss a report',
      description:
        'Marks a report `resolved` (you acted, e.g. suspended the user) or `dismissed` (nothing to do). An unknown id is a 404.',
      params: reportParamsSchema,
      body: updateReportBodySchema,
      responses: { 200: { description: 'The report.', schema: reportResponseSchema } },
      handler: async ({ params, body }, { safetyService }) => ({
        report: await safetyService.setReportStatus(params.id, body.status),
      }),
    }),
  ],
  async (app, options: IntegrationRoutesOptions) => {
    const { keys } = options;
    app.addHook('onRequest', async (request) => {
      if (keys.length === 0) throw notFound();
      if (!hasIntegrationKey(request, keys)) throw new HttpError(401, 'Unauthenticated.');
    });
    return options;
  },
);
