import type { FastifyRequest } from 'fastify';
import {
  initialDataQuerySchema,
  initialDataResponseSchema,
  messengerUserParamsSchema,
  messengerUserResponseSchema,
} from '../../../shared/conversations.js';
import {
  getMessageBodySchema,
  getMessageResponseSchema,
  sendMessageBodySchema,
  sendMessageResponseSchema,
} from '../../../shared/messages.js';
import { paths } from '../../../shared/paths.js';
import type { AuthUser, MessengerUser } from '../../../shared/models.js';
import {
  editMessageBodySchema,
  editMessageResponseSchema,
  messageParamsSchema,
  messageChangesPaths,
} from '../../../shared/message-changes.js';
import { definePageCallsFor, pageCallsPlugin } from '../../http/page-calls.js';
import { errors } from '../../openapi/vocabulary.js';
import type { MessengerService } from './messenger.service.js';

const socketIdOf = (request: FastifyRequest): string | undefined => {
  const value = request.headers['x-socket-id'];
  const socketId = Array.isArray(value) ? value[0] : value;
  return socketId && /^\d+\.\d+$/.test(socketId) ? socketId : undefined;
};

const { pageRead, pageChange } = definePageCallsFor<{ messengerService: MessengerService }>(
  'messenger',
);

/** A page call on one of the viewer's conversations (by id) that answers the conversation. */
const conversationCall = (
  method: 'get' | 'post',
  path: { readonly pattern: `${string}:id${string}` },
  operationId: string,
  summary: string,
  description: string,
  change: (service: MessengerService, viewer: AuthUser, id: number) => Promise<MessengerUser>,
) =>
  pageChange({
    method,
    path,
    operationId,
    summary,
    description,
    params: messengerUserParamsSchema,
    responses: {
      200: { description: 'The conversation.', schema: messengerUserResponseSchema },
      ...errors(403, 404),
    },
    // A GET that changes state (the contract's unseen call) still needs the CSRF header.
    ...(method === 'get' ? { config: { csrfOnGet: true } } : {}),
    handler: async ({ params, viewer }, { messengerService }) => ({
      messengerUser: await change(messengerService, viewer, params.id),
    }),
  });

/** The page's calls: parse, one service call, status. Key, sign-in and CSRF are checked before the body is read. */
export const messengerRoutes = pageCallsPlugin([
  pageRead({
    path: paths.initialData,
    operationId: 'getInitialData',
    summary:
      'The job filter, the viewer’s conversations (all of them, or a page with `limit`) and who the viewer is',
    description:
      'What the page loads first: the signed-in user, their conversations (newest activity first; optionally by job, archived or not, by a search on names and job titles, and a page at a time with `limit` and `cursor`), the jobs to filter by, the unread total and the archived count.',
    query: initialDataQuerySchema,
    responses: {
      200: {
        description:
          'Jobs, conversations (newest activity first), viewer, `unread_total` and `archived_count` ' +
          '(over all the viewer’s conversations). With `limit`: at most that many conversations and ' +
          '`next_cursor` (pass it as `cursor` for the next page; `null` on the last). The pages of ' +
          'one walk keep the order the list had at its first page: none is skipped or repeated.',
        schema: initialDataResponseSchema,
      },
    },
    handler: async ({ query, viewer }, { messengerService }) =>
      messengerService.initialData(viewer, query),
  }),
  pageChange({
    method: 'post',
    path: paths.getMessage,
    operationId: 'getMessages',
    summary: 'Open a conversation: its messages (paged back with `before`), marking them seen',
    description:
      'Opens one of the viewer’s conversations: its latest messages grouped by day (older ones with `before`), the other party and the job. Reading marks the received messages seen, and the sender is told live (unless either has read receipts off).',
    body: getMessageBodySchema,
    responses: {
      200: { description: 'The conversation and its messages.', schema: getMessageResponseSchema },
      ...errors(404),
    },
    handler: async ({ body, viewer }, { messengerService }) =>
      messengerService.getMessages(viewer, body),
  }),
  pageChange({
    method: 'post',
    path: paths.sendMessage,
    operationId: 'sendMessage',
    summary: 'Send a message (once per `client_id`), then broadcast it',
    description:
      'Sends a message in one of the viewer’s conversations: text, files (uploaded first), or both. It is stored once per `client_id`, delivered live to both parties, and passed to the host as a `message.created` webhook; the receiver is e-mailed if it stays unread. Refused with 403 when the sender is suspended or blocked by the receiver, 422 when the conversation is closed, 429 beyond the per-user send limits.',
    body: sendMessageBodySchema,
    responses: {
      200: { description: 'The stored message.', schema: sendMessageResponseSchema },
      ...errors(403, 404, 429),
    },
    handler: async ({ body, viewer, request }, { messengerService }) =>
      messengerService.send(viewer, body, socketIdOf(request)),
  }),
  conversationCall(
    'get',
    paths.unseen,
    'markSeen',
    'Mark the viewer’s unread messages of a conversation as seen (needs the CSRF header)',
    'Marks the messages the viewer received in that conversation as seen; the sender is told live unless either has read receipts off. A GET that changes state: it needs the CSRF header.',
    (service, viewer, id) => service.markSeen(viewer, id),
  ),
  conversationCall(
    'post',
    paths.archive,
    'archiveConversation',
    'Archive a conversation (the viewer’s own flag)',
    'Moves the conversation to the viewer’s archived list; only the viewer’s own flag changes (the other party sees nothing).',
    (service, viewer, id) => service.setArchived(viewer, id, true),
  ),
  pageChange({
    method: 'post',
    path: paths.typing,
    operationId: 'typing',
    summary: 'Tell the other party that the viewer is typing (at most one broadcast every 2 s)',
    description:
      'Tells the other party, live, that the viewer is typing; calls closer than 2 s apart are answered but not broadcast again. Refused (403) when the viewer is suspended or blocked by the other party.',
    params: messengerUserParamsSchema,
    responses: {
      204: { description: 'Told (or coalesced with a call less than 2 s before).' },
      ...errors(403, 404),
    },
    handler: async ({ params, viewer, reply }, { messengerService }) => {
      await messengerService.typing(viewer, params.id);
      return reply.code(204).send();
    },
  }),
  conversationCall(
    'post',
    paths.unarchive,
    'unarchiveConversation',
    'Return an archived conversation to the active list (the viewer’s own flag)',
    'Returns an archived conversation to the viewer’s active list; only the viewer’s own flag changes.',
    (service, viewer, id) => service.setArchived(viewer, id, false),
  ),
  pageChange({
    method: 'patch',
    path: messageChangesPaths.message,
    operationId: 'editMessage',
    summary:
      'Edit the text of one of the viewer’s own messages within the edit window (`EDIT_WINDOW_SECONDS`), then broadcast `MessageUpdated`',
    description:
      'Replaces the text of a message the viewer sent, within EDIT_WINDOW_SECONDS of sending it (later, or already deleted: 422). Both parties see the change live (`MessageUpdated`, with `edited_at` set) and the host gets a `message.updated` webhook.',
    params: messageParamsSchema,
    body: editMessageBodySchema,
    responses: {
      200: {
        description:
          'The message as it is now (`edited_at` set; the same text again changes nothing), and the conversation as the sender sees it.',
        schema: editMessageResponseSchema,
      },
      ...errors(403, 404),
    },
    handler: async ({ params, body, viewer, request }, { messengerService }) =>
      messengerService.editMessage(viewer, params.id, body.message, socketIdOf(request)),
  }),
  pageChange({
    method: 'delete',
    path: messageChangesPaths.message,
    operationId: 'deleteMessage',
    summary:
      'Delete one of the viewer’s own messages within the edit window: its text emptied, its files removed; then broadcast `MessageUpdated`',
    description:
      'Deletes a message the viewer sent, within the edit window: its text is emptied and its files removed, for both parties, live (`MessageUpdated`, with `deleted_at` set); the host gets a `message.deleted` webhook.',
    params: messageParamsSchema,
    responses: {
      204: { description: 'Deleted (the message keeps its place, with `deleted_at`).' },
      ...errors(403, 404),
    },
    handler: async ({ params, viewer, request, reply }, { messengerService }) => {
      await messengerService.deleteMessage(viewer, params.id, socketIdOf(request));
      return reply.code(204).send();
    },
  }),
]);
