import { randomUUID } from 'node:crypto';
import type { InitialDataResponse } from '../src/shared/conversations.js';
import type { GetMessageResponse, SendMessageResponse } from '../src/shared/messages.js';
import type { MessengerConfig } from '../src/shared/messenger-config.js';
import type { Chat, MessengerUser } from '../src/shared/models.js';
import { paths } from '../src/shared/paths.js';
import { DEFAULT_APP_KEY, withKey, type HttpSession } from './http-session.js';

/** The messaging calls the page makes, over HTTP against a running server. */

/** One conversation seen from one viewer: whom to address and about which job. */
export interface Conversation {
  id: number;
  receiverId: number;
  jobId: number | null;
}

export const conversationOf = (viewerId: number, record: MessengerUser): Conversation => ({
  id: record.id,
  receiverId: record.candidate_id === viewerId ? record.company_id : record.candidate_id,
  jobId: record.job_id,
});

export const initialData = async (session: HttpSession): Promise<InitialDataResponse> => {
  const response = await session.call('GET', paths.initialData);
  if (response.status !== 200)
    throw new Error(`initial data: ${response.status} ${await response.text()}`);
  return (await response.json()) as InitialDataResponse;
};

/**
 * A conversation as the viewer's list shows it, to compare before and after: without
 * `last_message_time`, a text ("1 second ago") that moves with the clock (`last_message_at` stays).
 */
export const conversationRecord = async (session: HttpSession, id: number) => {
  const record = (await initialData(session)).messengerUsers.find((item) => item.id === id);
  if (!record) return undefined;
  const { last_message_time: _movesWithTheClock, ...rest } = record;
  return rest;
};

/** The viewer's conversation with another user (about a job, or the first one with them). */
export const conversationWith = async (
  session: HttpSession,
  otherUserId: number,
  jobId?: number | null,
): Promise<Conversation> => {
  const { messengerUsers } = await initialData(session);
  const found = messengerUsers
    .map((record) => conversationOf(session.userId, record))
    .find(
      (conversation) =>
        conversation.receiverId === otherUserId &&
        (jobId === undefined || conversation.jobId === jobId),
    );
  if (!found) throw new Error(`user ${session.userId} has no conversation with ${otherUserId}`);
  return found;
};

/** A conversation (by id) as seen by this viewer. */
export const conversationById = async (
  session: HttpSession,
  conversationId: number,
): Promise<Conversation> => {
  const { messengerUsers } = await initialData(session);
  const record = messengerUsers.find((candidate) => candidate.id === conversationId);
  if (!record)
    throw new Error(`conversation ${conversationId} is not one of user ${session.userId}'s`);
  return conversationOf(session.userId, record);
};

export const newClientId = (): string => randomUUID();

export type SendOutcome =
  | { ok: true; status: number; chat: Chat }
  | { ok: false; status: number; retryAfter: string | null; body: string };

/** POST /user/send/message; a network failure (server gone) is status 0. */
export const sendMessage = async (
  session: HttpSession,
  conversation: Conversation,
  message: string,
  options: { clientId?: string; socketId?: string | undefined; attachmentIds?: number[] } = {},
): Promise<SendOutcome> => {
  let response: Response;
  try {
    response = await session.call(
      'POST',
      paths.sendMessage,
      {
        receiver_id: conversation.receiverId,
        messenger_user: conversation.id,
        job_id: conversation.jobId,
        message,
        client_id: options.clientId ?? newClientId(),
        ...(options.attachmentIds ? { attachment_ids: options.attachmentIds } : {}),
      },
      options.socketId ? { 'x-socket-id': options.socketId } : {},
    );
  } catch (error) {
    return { ok: false, status: 0, retryAfter: null, body: String(error) };
  }
  if (response.status >= 200 && response.status < 300) {
    const body = (await response.json()) as SendMessageResponse;
    return { ok: true, status: response.status, chat: body.message };
  }
  return {
    ok: false,
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: await response.text(),
  };
};

/**
 * The catch-up: pages back through a conversation's history (newest first) until `stopAtId` is
 * reached or there is nothing older. Returns every chat fetched, in the order received (duplicates
 * included, so callers can check that one fetch returns each message once).
 */
export const fetchHistory = async (
  session: HttpSession,
  conversation: Conversation,
  options: { stopAtId?: number; limit?: number } = {},
): Promise<Chat[]> => {
  const fetched: Chat[] = [];
  let before: number | undefined;
  for (;;) {
    const response = await session.call('POST', paths.getMessage, {
      receiver_id: conversation.receiverId,
      job_id: conversation.jobId,
      limit: options.limit ?? 100,
      ...(before === undefined ? {} : { before }),
    });
    if (response.status !== 200)
      throw new Error(`get message: ${response.status} ${await response.text()}`);
    const page = (await response.json()) as GetMessageResponse;
    const chats = page.messages.flatMap((group) => group.chats);
    fetched.push(...chats);
    const oldest = chats[0]?.id;
    if (!page.has_more || oldest === undefined) return fetched;
    if (options.stopAtId !== undefined && oldest <= options.stopAtId) return fetched;
    before = oldest;
  }
};

export const messengerConfig = async (baseUrl: string): Promise<MessengerConfig> => {
  const response = await fetch(`${baseUrl}${paths.config}`);
  return (await response.json()) as MessengerConfig;
};

/** POST /user/attachments as the page does (multipart, field `file`); the stored upload's id. */
export const uploadFile = async (
  baseUrl: string,
  session: HttpSession,
  name: string,
  bytes: Buffer,
  appKey = DEFAULT_APP_KEY,
): Promise<number> => {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  const response = await fetch(`${baseUrl}${withKey(paths.attachments, appKey)}`, {
    method: 'POST',
    headers: session.cookie
      ? { cookie: session.cookie, 'x-xsrf-token': session.csrf }
      : { authorization: `Bearer ${(session as { token?: string }).token ?? ''}` },
    body: form,
  });
  if (response.status !== 201)
    throw new Error(`upload: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { attachment: { id: number } }).attachment.id;
};

/** `viewer`'s conversation with `other` as the list shows it. */
export const rowWith = async (viewer: HttpSession, other: HttpSession): Promise<MessengerUser> => {
  const row = (await initialData(viewer)).messengerUsers.find(
    (item) => item.candidate_id === other.userId || item.company_id === other.userId,
  );
  if (!row) throw new Error(`${viewer.name} has no conversation with ${other.name}`);
  return row;
};

/** Changes the viewer's settings (`PATCH /user/settings`); anything but 200 fails. */
export const patchSettings = async (
  session: HttpSession,
  body: Record<string, unknown>,
): Promise<void> => {
  const response = await session.call('PATCH', paths.settings, body);
  if (response.status !== 200)
    throw new Error(`settings: ${response.status} ${await response.text()}`);
};

/** `viewer` opens the conversation with `other` (`POST /user/get/message`, which marks it seen). */
export const openConversationWith = async (
  viewer: HttpSession,
  other: HttpSession,
): Promise<GetMessageResponse> => {
  const conversation = await conversationWith(viewer, other.userId);
  const response = await viewer.call('POST', paths.getMessage, {
    receiver_id: other.userId,
    job_id: conversation.jobId,
  });
  if (response.status !== 200)
    throw new Error(`get message: ${response.status} ${await response.text()}`);
  return (await response.json()) as GetMessageResponse;
};

/** `from` sends `text` to `to` in their conversation; anything but a stored message fails. */
export const sendTo = async (from: HttpSession, to: HttpSession, text: string): Promise<Chat> => {
  const outcome = await sendMessage(from, await conversationWith(from, to.userId), text);
  if (!outcome.ok) throw new Error(`send answered ${outcome.status}: ${outcome.body}`);
  return outcome.chat;
};
