import { z } from 'zod';
import { paths } from '../../../shared/paths.js';
import { defineRouteFor, documentedOnly, routesPlugin } from '../../http/route.js';
import { safeEqual } from '../../lib/crypto.js';
import { HttpError } from '../../lib/http-error.js';
import { errors, security } from '../../openapi/vocabulary.js';
import { hmacSha256Hex } from '../../realtime/signatures.js';
import type { PresenceService } from './presence.service.js';

/** A webhook older (or further in the future) than this is refused: no replays. */
const WEBHOOK_MAX_AGE_MS = 5 * 60 * 1000;

/** What a hosted Pusher posts (its "channel existence" webhooks; other kinds are ignored). */
export const pusherWebhookBodySchema = z.object({
  time_ms: z.number().describe('When the hosted Pusher sent it (milliseconds since 1970).'),
  events: z
    .array(
      z
        .object({
          name: z
            .string()
            .describe(
              'The event’s kind: `channel_occupied` or `channel_vacated` (others are ignored).',
            ),
          channel: z.string().optional().describe('The channel it is about.'),
        })
        .loose(),
    )
    .describe('What happened, in order.'),
});

interface PresenceRoutesOptions {
  key: string;
  /** Undefined: no hosted Pusher, the route answers 404. */
  secret: string | undefined;
  presenceService: PresenceService;
}

const defineRoute = defineRouteFor<PresenceRoutesOptions>({
  tag: 'broadcasting',
  security: security.pusherWebhook,
});

/**
 * With a hosted Pusher the sockets are not on our instances: its `channel_occupied` and
 * `channel_vacated` webhooks (signed: `X-Pusher-Key` and `X-Pusher-Signature`, the HMAC-SHA256 of
 * the body with the app secret) tell presence when a user's own channel gains its first socket or
 * loses its last. Without a hosted Pusher it answers 404.
 */
export const presenceRoutes = routesPlugin(
  [
    defineRoute({
      method: 'post',
      path: paths.pusherWebhook,
      operationId: 'pusherWebhook',
      summary:
        'With a hosted Pusher only (404 otherwise): its signed `channel_occupied`/`channel_vacated` webhooks, which feed presence',
      description:
        'Only with a hosted Pusher (PUSHER_HOST or PUSHER_CLUSTER set; otherwise 404). The hosted Pusher posts its channel existence webhooks here, signed with the app secret: when a user’s channel becomes occupied or vacated, the messenger tells that user’s conversation partners they came online or went offline (unless the user hides it).',
      // the signature is over the body exactly as sent: it is parsed once verified
      body: documentedOnly(pusherWebhookBodySchema),
      responses: {
        200: { description: 'Taken into account.', schema: z.object({}) },
        ...errors(401, 404, 413, 422),
      },
      handler: async ({ body, request, reply }, options) => {
        const { secret } = options;
        if (secret === undefined) throw new HttpError(404, 'Not found.');
        const raw = typeof body === 'string' ? body : '';
        const key = request.headers['x-pusher-key'];
        const signature = request.headers['x-pusher-signature'];
        if (
          key !== options.key ||
          typeof signature !== 'string' ||
          !safeEqual(signature, hmacSha256Hex(secret, raw))
        )
          throw new HttpError(401, 'Invalid webhook signature.');
        let parsed: z.infer<typeof pusherWebhookBodySchema>;
        try {
          parsed = pusherWebhookBodySchema.parse(JSON.parse(raw));
        } catch {
          throw new HttpError(422, 'The webhook body is not a Pusher webhook.');
        }
        // a signed body captured and sent again later changes nothing
        if (Math.abs(Date.now() - parsed.time_ms) > WEBHOOK_MAX_AGE_MS)
          throw new HttpError(401, 'The webhook is too old.');
        // verified: from here on the body is what it says
        request.body = parsed;
        for (const event of parsed.events) {
          if (event.channel === undefined) continue;
          if (event.name === 'channel_occupied')
            await options.presenceService.hostedOccupancy(event.channel, true, parsed.time_ms);
          else if (event.name === 'channel_vacated')
            await options.presenceService.hostedOccupancy(event.channel, false, parsed.time_ms);
        }
        return reply.code(200).send({});
      },
    }),
  ],
  async (app, options: PresenceRoutesOptions) => {
    // the signature is over the body exactly as sent
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
      done(null, body),
    );
    return options;
  },
);
