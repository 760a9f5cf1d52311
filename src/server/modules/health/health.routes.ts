import { z } from 'zod';
import { paths } from '../../../shared/paths.js';
import { defineRouteFor, routesPlugin } from '../../http/route.js';
import { security } from '../../openapi/vocabulary.js';
import type { HealthService } from './health.service.js';

const checkSchema = z.enum(['ok', 'error', 'off']);
const checkOf = (what: string) =>
  checkSchema.describe(
    `${what}: \`ok\`, \`error\` (unreachable), or \`off\` (not used by this server).`,
  );
export const readinessSchema = z.object({
  status: z
    .enum(['ready', 'draining', 'unavailable'])
    .describe(
      '`ready` (200): send traffic; `draining` (503): the instance is stopping, send no new requests; `unavailable` (503): a dependency is down.',
    ),
  checks: z
    .object({ database: checkOf('The database'), redis: checkOf('Redis') })
    .describe('Each dependency’s state.'),
});
export const livenessSchema = z.object({
  status: z.literal('ok').describe('Always `ok`: the process answers.'),
});

const defineRoute = defineRouteFor<{ healthService: HealthService }>({
  tag: 'operations',
  security: security.public,
});

/** No session, no database for liveness; never cached. Neither writes a log line per call. */
export const healthRoutes = routesPlugin([
  defineRoute({
    method: 'get',
    path: paths.healthz,
    operationId: 'getLiveness',
    summary: 'The process runs (no database access)',
    description:
      'For a container’s liveness probe: answers 200 as long as the process runs, without touching the database.',
    responses: { 200: { description: 'Alive.', schema: livenessSchema } },
    handler: async ({ reply }) => {
      void reply.header('cache-control', 'no-store');
      return { status: 'ok' };
    },
  }),
  defineRoute({
    method: 'get',
    path: paths.readyz,
    operationId: 'getReadiness',
    summary:
      'Whether this instance should get traffic: the database and Redis answer, no stop begun',
    description:
      'For a load balancer’s health check: 200 while the database (and Redis, when used) answer within 1 s and no stop has begun; 503 otherwise, so traffic moves to other instances during a rolling stop.',
    responses: {
      200: { description: 'Ready.', schema: readinessSchema },
      503: {
        description:
          'Draining (a stop has begun), or unavailable (the database or Redis did not answer within 1 s).',
        schema: readinessSchema,
      },
    },
    handler: async ({ reply }, { healthService }) => {
      const readiness = await healthService.readiness();
      void reply.header('cache-control', 'no-store');
      return reply.code(readiness.status === 'ready' ? 200 : 503).send(readiness);
    },
  }),
]);
