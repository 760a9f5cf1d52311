import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { z } from 'zod';
import { paths } from '../../shared/paths.js';
import { defineRouteFor, documentedOnly, routesPlugin } from '../http/route.js';
import { errors, security } from '../openapi/vocabulary.js';
import type { RealtimeLogger } from './types.js';
import {
  parseBatchBody,
  parseEventsBody,
  triggerBatchBodySchema,
  triggerEventBodySchema,
  type TriggerEvent,
} from './trigger-bodies.js';
import {
  REPLAY_MESSAGE,
  SeenSignatures,
  signatureExpiresAtMs,
  type ClaimResult,
  type SignatureMemory,
} from './trigger-replays.js';
import {
  triggerQuerySchema,
  verifyTriggerSignature,
  type TriggerCredentials,
  type VerifyFailure,
  type VerifyResult,
} from './trigger-verify.js';

/** Body limit of the trigger routes: 100 channels + 10 KB data, or a batch of 10 events of 10 KB. */
export const TRIGGER_BODY_LIMIT_BYTES = 256 * 1024;

export const triggerParamsSchema = z.object({
  appId: z.string().describe('The broadcaster’s app id (PUSHER_APP_ID).'),
});
/** A published event: an empty object, as Pusher answers. */
export const triggerResponseSchema = z.object({});

export interface TriggerRoutesOptions {
  appId: string;
  key: string;
  secret: string;
  /** Hands one event to the broadcaster (local delivery or Redis fan-out). */
  deliver: (event: TriggerEvent) => Promise<void>;
  /**
   * Where used signatures are remembered, so that an exact replay within the timestamp window is
   * refused (401). Default: this process only (see docs/realtime.md for several instances).
   */
  signatures?: SignatureMemory | undefined;
  logger?: RealtimeLogger | undefined;
}

interface TriggerRoutesDeps {
  appId: string;
  credentials: TriggerCredentials;
  signatures: SignatureMemory;
  deliver: (event: TriggerEvent) => Promise<void>;
  logger?: RealtimeLogger | undefined;
}

const defineRoute = defineRouteFor<TriggerRoutesDeps>({
  tag: 'realtime',
  security: security.pusher,
});

const sendFailure = (reply: FastifyReply, failure: VerifyFailure) => {
  if (failure.retryAfterSeconds !== undefined)
    void reply.header('retry-after', String(failure.retryAfterSeconds));
  return reply.code(failure.status).send({ message: failure.message });
};

/**
 * A publishing call: the app's signature over the method, path, query and the body's exact bytes
 * is checked first (hence a raw body, parsed by `parse` once verified), then replays are refused.
 */
const triggerRoute = (
  path: { readonly pattern: `${string}:appId${string}` },
  operationId: string,
  summary: string,
  description: string,
  body: z.ZodType,
  parse: (rawBody: Buffer) => VerifyResult<TriggerEvent | TriggerEvent[]>,
) =>
  defineRoute({
    method: 'post',
    path,
    operationId,
    summary,
    description,
    params: triggerParamsSchema,
    query: documentedOnly(triggerQuerySchema),
    body: documentedOnly(body),
    responses: {
      200: { description: 'Handed to the broadcaster.', schema: triggerResponseSchema },
      ...errors(400, 401, 404, 413, 429, 503),
    },
    bodyLimit: TRIGGER_BODY_LIMIT_BYTES,
    handler: async ({ params, body, request, reply }, options) => {
      if (params.appId !== options.appId)
        return sendFailure(reply, { ok: false, status: 404, message: 'Unknown app.' });
      const rawUrl = request.raw.url ?? request.url;
      const q = rawUrl.indexOf('?');
      const rawBody = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
      const verified = verifyTriggerSignature(
        {
          method: request.method,
          path: q === -1 ? rawUrl : rawUrl.slice(0, q),
          query: q === -1 ? '' : rawUrl.slice(q + 1),
          rawBody,
        },
        options.credentials,
      );
      if (!verified.ok) {
        options.logger?.info({ reason: verified.message }, 'realtime: trigger request refused');
        return sendFailure(reply, verified);
      }
      if (rawBody.length === 0)
        return sendFailure(reply, { ok: false, status: 400, message: 'Empty body.' });
      const parsed = parse(rawBody);
      if (!parsed.ok) return sendFailure(reply, parsed);
      const { signatures } = options;
      const { signature, timestamp } = verified.value;
      let claim: ClaimResult;
      try {
        claim = await signatures.claim(signature, signatureExpiresAtMs(timestamp));
      } catch (error) {
        options.logger?.warn({ err: error }, 'realtime: could not check a trigger for replay');
        return sendFailure(reply, {
          ok: false,
          status: 503,
          message: 'Service temporarily unavailable. Please retry.',
          retryAfterSeconds: 5,
        });
      }
      if (claim === 'replay') {
        options.logger?.info({}, 'realtime: replayed trigger request refused');
        return sendFailure(reply, { ok: false, status: 401, message: REPLAY_MESSAGE });
      }
      if (claim !== 'fresh') {
        return sendFailure(reply, {
          ok: false,
          status: 429,
          message: 'Too many trigger requests within the timestamp window. Retry later.',
          retryAfterSeconds: claim.retryAfterSeconds,
        });
      }
      const events = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
      // In order; each is handed off before the next.
      let delivered = 0;
      try {
        for (const event of events) {
          await options.deliver(event);
          delivered += 1;
        }
      } catch (error) {
        // Nothing went out: the very same request may be sent again (it is no replay then).
        if (delivered === 0) await signatures.release(signature).catch(() => undefined);
        throw error;
      }
      return reply.code(200).send({});
    },
  });

/**
 * The Pusher HTTP API subset the official `pusher` package uses to publish:
 * `POST /apps/{appId}/events` and `POST /apps/{appId}/batch_events`.
 */
export const triggerRoutes = routesPlugin(
  [
    triggerRoute(
      paths.triggerEvents,
      'triggerEvent',
      'Publish one event to one or more channels (Pusher HTTP API)',
      'Only with the embedded broadcaster (absent with a hosted Pusher). The Pusher HTTP API, so that a back end using a Pusher server library can publish events to the page’s channels: the request is signed with the app secret (`auth_signature`), and a replayed request is refused.',
      triggerEventBodySchema,
      parseEventsBody,
    ),
    triggerRoute(
      paths.triggerBatchEvents,
      'triggerBatchEvents',
      'Publish up to 10 events (Pusher HTTP API)',
      'Only with the embedded broadcaster. Several events in one signed request (Pusher HTTP API `batch_events`), each to one channel, delivered in order.',
      triggerBatchBodySchema,
      parseBatchBody,
    ),
  ],
  async (app, options: TriggerRoutesOptions): Promise<TriggerRoutesDeps> => {
    // body_md5 is over the exact bytes, so keep the body raw here; it is parsed after verification.
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: TRIGGER_BODY_LIMIT_BYTES },
      (_request, body, done) => done(null, body),
    );
    return {
      appId: options.appId,
      credentials: { key: options.key, secret: options.secret },
      signatures: options.signatures ?? new SeenSignatures(),
      deliver: options.deliver,
      logger: options.logger,
    };
  },
);

/**
 * The trigger routes with these options, as a plugin of their own: encapsulated (not wrapped with
 * fastify-plugin), so the raw-body JSON parser it installs applies to these two routes only.
 */
export const createTriggerRoutes =
  (options: TriggerRoutesOptions): FastifyPluginAsync =>
  async (app) =>
    triggerRoutes(app, options);

/** The plugin used when an external service is configured: nothing to serve. */
export const noTriggerRoutes: FastifyPluginAsync = async () => undefined;
