import { z } from 'zod';
import { paths } from '../../../shared/paths.js';
import { parseUserChannel } from '../../../shared/events.js';
import { defineRouteFor, routesPlugin } from '../../http/route.js';
import { forbidden } from '../../lib/http-error.js';
import { bodyErrors, errors, security } from '../../openapi/vocabulary.js';
import { viewerOf } from '../../plugins/auth.js';
import type { Viewer } from '../auth/auth.service.js';
import { userSocketsKey } from '../integration/integration.service.js';
import type { Realtime } from '../../realtime/index.js';
import { SOCKET_ID_PATTERN } from '../../realtime/protocol.js';

/** The protocol's own rule (`123.456`, at most 20 digits a part): what the signer accepts. */
const socketId = z.string().regex(SOCKET_ID_PATTERN, 'The socket_id is invalid.');
export const channelAuthBodySchema = z.object({
  socket_id: socketId.describe(
    'The socket’s id, as pusher-js gives it on connecting (e.g. `123.456`).',
  ),
  channel_name: z
    .string()
    .min(1)
    .max(200)
    .describe(
      'The channel to join: the viewer’s own `private-chat.{user id}` (anything else is a 403).',
    ),
});
export const userAuthBodySchema = z.object({
  socket_id: socketId.describe('The socket’s id, as pusher-js gives it on connecting.'),
});
/** What pusher-js expects back: the signature (and, for presence channels, the member data). */
export const channelAuthResponseSchema = z.object({
  auth: z
    .string()
    .describe('The signature pusher-js sends to join the channel (`key:hex HMAC-SHA256`).'),
  channel_data: z
    .string()
    .optional()
    .describe('For a presence channel only: the member’s data, as JSON text.'),
});
export const userAuthResponseSchema = z.object({
  auth: z.string().describe('The signature pusher-js sends to authenticate the user.'),
  user_data: z.string().describe('The user’s data (`{"id": …}`) as JSON text.'),
});

interface BroadcastingRoutesDeps {
  realtime: Realtime;
  /** Binds a socket to its session (sign-out closes it) and to its user (erasure closes it). */
  bindSocket: (socketId: string, viewer: Viewer) => void;
}

const defineRoute = defineRouteFor<BroadcastingRoutesDeps>({
  tag: 'broadcasting',
  security: security.viewerChange,
});

/** pusher-js posts a form, other clients JSON. */
const bodyTypes = ['application/json', 'application/x-www-form-urlencoded'];

/** Signs subscriptions (only the caller's own `private-chat.{id}`) and user authentication for pusher-js. */
export const broadcastingRoutes = routesPlugin(
  [
    defineRoute({
      bodyTypes,
      method: 'post',
      path: paths.broadcastingAuth,
      operationId: 'authorizeChannel',
      summary: 'Sign a subscription to the caller’s own `private-chat.{id}` channel',
      description:
        'pusher-js calls this (as `authEndpoint`) when the page subscribes to the signed-in user’s own channel, where every live event for that user arrives (new messages, edits, read receipts, typing, presence). Only the caller’s own `private-chat.{id}` channel is signed: any other channel is a 403. The socket is tied to the session, so signing out or erasure closes it.',
      body: channelAuthBodySchema,
      responses: {
        200: { description: 'The signature pusher-js expects.', schema: channelAuthResponseSchema },
        ...errors(...bodyErrors, 401, 403, 419, 422, 503),
      },
      handler: async ({ body, request }, { realtime, bindSocket }) => {
        const viewer = viewerOf(request);
        if (parseUserChannel(body.channel_name) !== viewer.user.id) throw forbidden();
        bindSocket(body.socket_id, viewer);
        return realtime.authorizeChannel(body.socket_id, body.channel_name);
      },
    }),
    defineRoute({
      bodyTypes,
      method: 'post',
      path: paths.broadcastingUserAuth,
      operationId: 'authenticateUser',
      summary: 'Sign user authentication for pusher-js',
      description:
        'pusher-js calls this (as `userAuthEndpoint`) to authenticate the signed-in user on its socket. The answer carries the user’s id; the socket is tied to the session and closed on sign-out or erasure.',
      body: userAuthBodySchema,
      responses: {
        200: { description: 'The signature pusher-js expects.', schema: userAuthResponseSchema },
        ...errors(...bodyErrors, 401, 419, 422, 503),
      },
      handler: async ({ body, request }, { realtime, bindSocket }) => {
        const viewer = viewerOf(request);
        bindSocket(body.socket_id, viewer);
        return realtime.authenticateUser(body.socket_id, {
          id: String(viewer.user.id),
          user_info: { name: viewer.user.name, role: viewer.user.role },
        });
      },
    }),
  ],
  async (app, { realtime }: { realtime: Realtime }): Promise<BroadcastingRoutesDeps> => {
    app.addHook('onRequest', app.requireViewer);
    return {
      realtime,
      bindSocket: (socketId, viewer) => {
        if (viewer.sessionHash) realtime.bindSocketToSession(socketId, viewer.sessionHash);
        realtime.bindSocketToSession(socketId, userSocketsKey(viewer.user.id));
      },
    };
  },
);
