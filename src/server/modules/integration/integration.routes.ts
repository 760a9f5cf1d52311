import { createHash } from 'node:crypto';
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
} from '../../../shared/integration.js';
import {
  moderationPaths,
  reportParamsSchema,
  reportResponseSchema,
  reportsQuerySchema,
  reportsResponseSchema,
  updateReportBodySchema,
} from '../../../shared/safety.js';
import { safeEqual } from '../../lib/crypto.js';
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
  createHash('sha256')
    .update(presentedKey(request) ?? '')
    .digest('hex')
    .slice(0, 16);

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
      params: userParamsSchema,
      responses: { 200: { description: 'The user.', schema: integrationUserResponseSchema } },
      handler: async ({ params }, { integrationService }) => ({
        user: await integrationService.getUser(params.externalId),
      }),
    }),
    defineRoute({
      method: 'delete',
      path: integrationPaths.user,
      operationId: 'eraseUser',
      summary: 'Erase a user (sessions, tokens, sockets end; messages stay for the other party)',
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
