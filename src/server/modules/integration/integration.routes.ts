import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  applicationParamsSchema,
  integrationRoutes,
  jobParamsSchema,
  setApplicationBodySchema,
  startConversationBodySchema,
  upsertJobBodySchema,
  upsertUserBodySchema,
  userParamsSchema,
} from '../../../shared/integration.js';
import { safeEqual } from '../../lib/crypto.js';
import { HttpError, notFound } from '../../lib/http-error.js';
import { parseBody, parseInput } from '../../lib/validation.js';
import type { IntegrationService } from './integration.service.js';

/** True when the request carries `Authorization: Bearer <one of the keys>` (each compared in constant time). */
const hasIntegrationKey = (request: FastifyRequest, keys: readonly string[]): boolean => {
  const header = request.headers.authorization ?? '';
  const match = /^Bearer ([^\s]+)$/.exec(header);
  if (!match?.[1]) return false;
  const presented = match[1];
  // every key is compared, so the time taken does not say which one (or how many) exist
  let found = false;
  for (const key of keys) found = safeEqual(presented, key) || found;
  return found;
};

/**
 * The integration API (server to server, contract Part 2): Bearer key, no cookies, no CSRF, no
 * `key` parameter. Without INTEGRATION_KEYS every path answers 404 (the API is off).
 */
export const integrationRoutesPlugin = async (
  app: FastifyInstance,
  options: { integrationService: IntegrationService; keys: readonly string[] },
) => {
  const { integrationService: service, keys } = options;
  app.addHook('onRequest', async (request) => {
    if (keys.length === 0) throw notFound();
    if (!hasIntegrationKey(request, keys)) throw new HttpError(401, 'Unauthenticated.');
  });

  app.put(integrationRoutes.user, async (request, reply) => {
    const { externalId } = parseInput(userParamsSchema, request.params);
    const body = parseBody(upsertUserBodySchema, request.body);
    const { created, user } = await service.upsertUser(externalId, body);
    return reply.status(created ? 201 : 200).send({ user });
  });

  app.get(integrationRoutes.user, async (request) => {
    const { externalId } = parseInput(userParamsSchema, request.params);
    return { user: await service.getUser(externalId) };
  });

  app.delete(integrationRoutes.user, async (request, reply) => {
    const { externalId } = parseInput(userParamsSchema, request.params);
    await service.eraseUser(externalId);
    return reply.status(204).send();
  });

  app.put(integrationRoutes.job, async (request, reply) => {
    const { externalId } = parseInput(jobParamsSchema, request.params);
    const body = parseBody(upsertJobBodySchema, request.body);
    const { created, job } = await service.upsertJob(externalId, body);
    return reply.status(created ? 201 : 200).send({ job });
  });

  app.put(integrationRoutes.application, async (request) => {
    const { jobExternalId, candidateExternalId } = parseInput(
      applicationParamsSchema,
      request.params,
    );
    const { group } = parseBody(setApplicationBodySchema, request.body);
    return service.setApplication(jobExternalId, candidateExternalId, group);
  });

  app.post(integrationRoutes.conversations, async (request, reply) => {
    const body = parseBody(startConversationBodySchema, request.body);
    const { created, response } = await service.startConversation(body);
    return reply.status(created ? 201 : 200).send(response);
  });
};
