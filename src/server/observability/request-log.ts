import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { paths } from '../../shared/paths.js';
import type { TrustProxy } from '../config.js';
import { peerIsTrusted } from '../lib/client-address.js';
import type { Metrics } from './metrics.js';

/** A request id from the proxy is kept when it looks like one (letters, digits, `-_.:`, ≤ 128). */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Answered without a log line (probes and scrapes come every few seconds). */
const QUIET_ROUTES = new Set<string>([paths.healthz, paths.readyz]);

/**
 * Fastify's `genReqId`: the `X-Request-Id` a trusted proxy (TRUST_PROXY) sent, else a new one.
 * A client's own header is not believed: it could make its lines look like another request's.
 */
export const requestIdFor = (trust: TrustProxy): ((req: IncomingMessage) => string) => {
  const trusted = peerIsTrusted(trust);
  return (req) => {
    const sent = req.headers['x-request-id'];
    return typeof sent === 'string' && REQUEST_ID.test(sent) && trusted(req) ? sent : randomUUID();
  };
};

/**
 * What the log must never hold (pino's redaction, on every line): credentials, cookies, secrets
 * and what people write. The server logs no bodies; these paths catch what a log call might pass.
 */
export const REDACTED_LOG_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  'req.headers["x-xsrf-token"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.password_hash',
  '*.token',
  '*.secret',
  '*.csrf_token',
  '*.body',
  'chat.message',
  'chatMessage.message',
];

/**
 * Every answer carries its `X-Request-Id`; every answered request (probes excepted) is one `info`
 * line (method, route pattern, status, milliseconds) and one observation in the HTTP metrics.
 */
export const requestLogPlugin = fastifyPlugin(
  async (app: FastifyInstance, options: { metrics: Metrics }) => {
    // Callback hooks, not async ones: they run on every request, and a promise each costs.
    app.addHook('onRequest', (request, reply, done) => {
      void reply.header('x-request-id', request.id);
      done();
    });
    app.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? 'unmatched';
      const ms = reply.elapsedTime;
      options.metrics.requestAnswered(request.method, route, reply.statusCode, ms / 1000);
      if (!QUIET_ROUTES.has(route))
        request.log.info(
          { method: request.method, route, status: reply.statusCode, ms: Math.round(ms * 10) / 10 },
          'request completed',
        );
      done();
    });
  },
  { name: 'request-log' },
);
