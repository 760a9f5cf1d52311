import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { paths } from '../../../shared/api.js';
import { parseUserChannel } from '../../../shared/events.js';
import { forbidden } from '../../lib/http-error.js';
import { parseBody } from '../../lib/validation.js';
import { viewerOf } from '../../plugins/auth.js';
import type { Realtime } from '../../realtime/index.js';
import { SOCKET_ID_PATTERN } from '../../realtime/protocol.js';

/** The protocol's own rule (`123.456`, at most 20 digits a part): what the signer accepts. */
const socketId = z.string().regex(SOCKET_ID_PATTERN, 'The socket_id is invalid.');
const channelAuthSchema = z.object({
  socket_id: socketId,
  channel_name: z.string().min(1).max(200),
});
const userAuthSchema = z.object({ socket_id: socketId });

/** Signs subscriptions (only the caller's own `private-chat.{id}`) and user authentication for pusher-js. */
export const broadcastingRoutes = async (app: FastifyInstance, options: { realtime: Realtime }) => {
  const { realtime } = options;
  app.addHook('onRequest', app.requireViewer);

  app.post(paths.broadcastingAuth, async (request) => {
    const viewer = viewerOf(request);
    const body = parseBody(channelAuthSchema, request.body);
    if (parseUserChannel(body.channel_name) !== viewer.user.id) throw forbidden();
    if (viewer.sessionHash) realtime.bindSocketToSession(body.socket_id, viewer.sessionHash);
    return realtime.authorizeChannel(body.socket_id, body.channel_name);
  });

  app.post(paths.broadcastingUserAuth, async (request) => {
    const viewer = viewerOf(request);
    const body = parseBody(userAuthSchema, request.body);
    if (viewer.sessionHash) realtime.bindSocketToSession(body.socket_id, viewer.sessionHash);
    return realtime.authenticateUser(body.socket_id, {
      id: String(viewer.user.id),
      user_info: { name: viewer.user.name, role: viewer.user.role },
    });
  });
};
