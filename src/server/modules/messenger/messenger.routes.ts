import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  getMessageBodySchema,
  initialDataQuerySchema,
  messengerUserParamsSchema,
  paths,
  sendMessageBodySchema,
} from '../../../shared/api.js';
import { parseBody, parseInput } from '../../lib/validation.js';
import { viewerOf } from '../../plugins/auth.js';
import type { MessengerService } from './messenger.service.js';

const socketIdOf = (request: FastifyRequest): string | undefined => {
  const value = request.headers['x-socket-id'];
  const socketId = Array.isArray(value) ? value[0] : value;
  return socketId && /^\d+\.\d+$/.test(socketId) ? socketId : undefined;
};

/** Thin routes: parse, one service call, status. Key, sign-in and CSRF are checked before the body is read. */
export const messengerRoutes = async (
  app: FastifyInstance,
  options: { messengerService: MessengerService },
) => {
  const service = options.messengerService;
  app.addHook('onRequest', app.requireAppKey);
  app.addHook('onRequest', app.requireViewer);

  app.get(paths.initialData, async (request) => {
    const query = parseInput(initialDataQuerySchema, request.query);
    return service.initialData(viewerOf(request).user, query);
  });

  app.post(paths.getMessage, async (request) => {
    const body = parseBody(getMessageBodySchema, request.body);
    return service.getMessages(viewerOf(request).user, body);
  });

  app.post(paths.sendMessage, async (request) => {
    const body = parseBody(sendMessageBodySchema, request.body);
    return service.send(viewerOf(request).user, body, socketIdOf(request));
  });

  app.get('/user/send/message/unseen/:id', { config: { csrfOnGet: true } }, async (request) => {
    const { id } = parseInput(messengerUserParamsSchema, request.params);
    return { messengerUser: await service.markSeen(viewerOf(request).user, id) };
  });

  app.post('/user/messenger/:id/archive', async (request) => {
    const { id } = parseInput(messengerUserParamsSchema, request.params);
    return { messengerUser: await service.setArchived(viewerOf(request).user, id, true) };
  });

  app.post('/user/messenger/:id/typing', async (request, reply) => {
    const { id } = parseInput(messengerUserParamsSchema, request.params);
    await service.typing(viewerOf(request).user, id);
    return reply.code(204).send();
  });

  app.post('/user/messenger/:id/unarchive', async (request) => {
    const { id } = parseInput(messengerUserParamsSchema, request.params);
    return { messengerUser: await service.setArchived(viewerOf(request).user, id, false) };
  });
};
