import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { RealtimeLogger } from './types.js';
import {
  parseBatchBody,
  parseEventsBody,
  verifyTriggerSignature,
  type TriggerEvent,
  type VerifyFailure,
  type VerifyResult,
} from './trigger-verify.js';

/** Body limit of the trigger routes: 100 channels + 10 KB data, or a batch of 10 events of 10 KB. */
export const TRIGGER_BODY_LIMIT_BYTES = 256 * 1024;

export interface TriggerRoutesOptions {
  appId: string;
  key: string;
  secret: string;
  /** Hands one event to the broadcaster (local delivery or Redis fan-out). */
  deliver: (event: TriggerEvent) => Promise<void>;
  logger?: RealtimeLogger | undefined;
}

/**
 * The Pusher HTTP API subset the official `pusher` package uses to publish:
 * `POST /apps/{appId}/events` and `POST /apps/{appId}/batch_events`.
 *
 * Encapsulated (not wrapped with fastify-plugin): the raw-body JSON parser it installs applies to
 * these two routes only.
 */
export const createTriggerRoutes = (options: TriggerRoutesOptions): FastifyPluginAsync => {
  const credentials = { key: options.key, secret: options.secret };

  return async (app) => {
    // body_md5 is over the exact bytes, so keep the body raw here; it is parsed after verification.
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: TRIGGER_BODY_LIMIT_BYTES },
      (_request, body, done) => done(null, body),
    );

    const handle =
      (parse: (rawBody: Buffer) => VerifyResult<TriggerEvent | TriggerEvent[]>) =>
      async (request: FastifyRequest<{ Params: { appId: string } }>, reply: FastifyReply) => {
        if (request.params.appId !== options.appId)
          return sendFailure(reply, { ok: false, status: 404, message: 'Unknown app.' });
        const rawUrl = request.raw.url ?? request.url;
        const q = rawUrl.indexOf('?');
        const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const verified = verifyTriggerSignature(
          {
            method: request.method,
            path: q === -1 ? rawUrl : rawUrl.slice(0, q),
            query: q === -1 ? '' : rawUrl.slice(q + 1),
            rawBody,
          },
          credentials,
        );
        if (!verified.ok) {
          options.logger?.info({ reason: verified.message }, 'realtime: trigger request refused');
          return sendFailure(reply, verified);
        }
        if (rawBody.length === 0)
          return sendFailure(reply, { ok: false, status: 400, message: 'Empty body.' });
        const parsed = parse(rawBody);
        if (!parsed.ok) return sendFailure(reply, parsed);
        const events = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
        // In order; each is handed off before the next.
        for (const event of events) await options.deliver(event);
        return reply.code(200).send({});
      };

    const routeOptions = { bodyLimit: TRIGGER_BODY_LIMIT_BYTES };
    app.post<{ Params: { appId: string } }>(
      '/apps/:appId/events',
      routeOptions,
      handle(parseEventsBody),
    );
    app.post<{ Params: { appId: string } }>(
      '/apps/:appId/batch_events',
      routeOptions,
      handle(parseBatchBody),
    );
  };
};

const sendFailure = (reply: FastifyReply, failure: VerifyFailure) =>
  reply.code(failure.status).send({ message: failure.message });

/** The plugin used when an external service is configured: nothing to serve. */
export const noTriggerRoutes: FastifyPluginAsync = async () => undefined;
