import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { paths } from '../../../shared/api.js';
import { parseUserChannel } from '../../../shared/events.js';
import { forbidden } from '../../lib/http-error.js';
import { parseBody } from '../../lib/validation.js';
import { viewerOf } from '../../plugins/auth.js';
import { userSocketsKey } from '../integration/integration.service.js';
import type { Realtime } from '../../realtime/index.js';
import { SOCKET_ID_PATTERN } from '../../realtime/protocol.js';

/** The protocol's own rule (`123.456`, at most 20 digits a part): what the signer accepts. */
const socketId = z.string().regex(SOCKET_ID_PATTERN, 'The socket_id is invalid.');
export const channelAuthBodySchema = z.object({
  socket_id: socketId,
  channel_name: z.string().min(1).max(200),
});
export const userAuthBodySchema = z.object({ socket_id: socketId });
/** What pusher-js expects back: the signature (and, for presence channels, the member data). */
export const channelAuthResponseSchema = z.object({
  auth: z.string(),
  channel_data: z.string().optional(),
});
export const userAuthResponseSchema = z.object({ auth: z.string(), user_data: z.string() });

/** Signs subscriptions (only the caller's own `private-chat.{id}`) and user authentication for pusher-js. */
export const broadcastingRoutes = async (app: FastifyInstance, options: { realtime: Realtime }) => {
  const { realtime } = options;
  app.addHook('onRequest', app.requireViewer);
  // A socket is bound to its session (sign-out closes it) and to its user (erasure closes it).
  const bindSocket = (socketId: string, viewer: ReturnType<typeof viewerOf>) => {
    if (viewer.sessionHash) realtime.bindSocketToSession(socketId, viewer.sessionHash);
    realtime.bindSocketToSession(socketId, userSocketsKey(viewer.user.id));
  };

  app.post(paths.broadcastingAuth, async (request) => {
    const viewer = viewerOf(request);
    const body = parseBody(channelAuthBodySchema, request.body);
    if (parseUserChannel(body.channel_name) !== viewer.user.id) throw forbidden();
    bindSocket(body.socket_id, viewer);
    return realtime.authorizeChannel(body.socket_id, body.channel_name);
  });

  app.post(paths.broadcastingUserAuth, async (request) => {
    const viewer = viewerOf(request);
    const body = parseBody(userAuthBodySchema, request.body);
    bindSocket(body.socket_id, viewer);
    return realtime.authenticateUser(body.socket_id, {
      id: String(viewer.user.id),
      user_info: { name: viewer.user.name, role: viewer.user.role },
    });
  });
};
