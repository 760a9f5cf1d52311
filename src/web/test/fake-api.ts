import { vi } from 'vitest';
import type { GetMessageBody, SendMessageBody, UploadedAttachment } from '../../shared/api.js';
import { DEFAULT_USER_SETTINGS, type UserSettingsPatch } from '../../shared/integration.js';
import type { Chat, MessengerUser } from '../../shared/models.js';
import { paths } from '../../shared/paths.js';
import type { getDemoAccounts } from '../features/auth/api/get-demo-accounts.js';
import type { login } from '../features/auth/api/login.js';
import type { logout } from '../features/auth/api/logout.js';
import type { attachmentExists } from '../features/chat/api/attachment-exists.js';
import type { getMessages } from '../features/chat/api/get-messages.js';
import type { sendMessage } from '../features/chat/api/send-message.js';
import type { sendTyping } from '../features/chat/api/send-typing.js';
import type { uploadAttachment } from '../features/chat/api/upload-attachment.js';
import type {
  archiveConversation,
  unarchiveConversation,
} from '../features/conversations/api/archive-conversation.js';
import type {
  getInitialData,
  InitialDataParams,
} from '../features/conversations/api/get-initial-data.js';
import type { markSeen } from '../features/conversations/api/mark-seen.js';
import type { getSettings } from '../features/settings/api/get-settings.js';
import type { updateSettings } from '../features/settings/api/update-settings.js';
import { groupChatsByDate } from '../features/chat/utils/thread-cache.js';
import {
  ApiError,
  type ApiClient,
  type QueryValue,
  type UploadOptions,
} from '../lib/api-client.js';
import { isArchivedFor, matchesSearch } from '../features/conversations/utils/conversation-view.js';
import type { Scenario } from './fixtures.js';

/** A call as the page makes it, without the client (each call file's fetcher). */
type Call<F> = F extends (client: ApiClient, ...args: infer A) => infer R
  ? (...args: A) => R
  : never;

/** Every call the page makes, as the fake server answers it. */
interface FakeCalls {
  login: Call<typeof login>;
  getDemoAccounts: Call<typeof getDemoAccounts>;
  logout: Call<typeof logout>;
  getInitialData: Call<typeof getInitialData>;
  getMessages: Call<typeof getMessages>;
  sendMessage: Call<typeof sendMessage>;
  uploadAttachment: Call<typeof uploadAttachment>;
  attachmentExists: Call<typeof attachmentExists>;
  markSeen: Call<typeof markSeen>;
  sendTyping: Call<typeof sendTyping>;
  archiveConversation: Call<typeof archiveConversation>;
  unarchiveConversation: Call<typeof unarchiveConversation>;
  getSettings: Call<typeof getSettings>;
  updateSettings: Call<typeof updateSettings>;
}

/** The id in a path made by `pathOf` (e.g. `paths.archive`), or null when the path is another. */
const idIn = (path: string, pathOf: (id: number) => string): number | null => {
  const match = new RegExp(`^${pathOf(0).replace('/0', '/(\\d+)')}$`).exec(path);
  return match ? Number(match[1]) : null;
};

/** The list's parameters back from the query string `getInitialData` builds. */
const initialDataParams = (query: Record<string, QueryValue> = {}): InitialDataParams => ({
  jobId: query.job_id === '' || query.job_id == null ? null : Number(query.job_id),
  ...(query.limit === undefined ? {} : { limit: Number(query.limit) }),
  cursor: query.cursor === undefined ? null : String(query.cursor),
  search: query.search === undefined ? '' : String(query.search),
  ...(query.archived === undefined ? {} : { archived: Number(query.archived) === 1 }),
});

/**
 * The API client the page gets: each request goes to the fake call it stands for (the page's
 * own fetchers build the requests, so they run in every test).
 */
const clientFor = (api: FakeCalls): ApiClient => {
  const notFound = (method: string, path: string) =>
    new ApiError(404, `The fake server has no ${method} ${path}`);
  const get = async (path: string, query?: Record<string, QueryValue>): Promise<unknown> => {
    if (path === paths.initialData) return api.getInitialData(initialDataParams(query));
    if (path === paths.settings) return api.getSettings();
    if (path === paths.demoAccounts) return { accounts: await api.getDemoAccounts() };
    const unseen = idIn(path, paths.unseen);
    if (unseen !== null) return api.markSeen(unseen);
    throw notFound('GET', path);
  };
  const post = async (path: string, body: unknown): Promise<unknown> => {
    if (path === paths.getMessage) return api.getMessages(body as never);
    if (path === paths.sendMessage) return api.sendMessage(body as never);
    if (path === paths.login) return api.login(body as never);
    if (path === paths.logout) return api.logout();
    const archive = idIn(path, paths.archive);
    if (archive !== null) return api.archiveConversation(archive);
    const unarchive = idIn(path, paths.unarchive);
    if (unarchive !== null) return api.unarchiveConversation(unarchive);
    const typing = idIn(path, paths.typing);
    if (typing !== null) return api.sendTyping(typing);
    throw notFound('POST', path);
  };
  return {
    get: async <T>(path: string, options?: { query?: Record<string, QueryValue> }) =>
      (await get(path, options?.query)) as T,
    post: async <T>(path: string, body?: unknown) => (await post(path, body)) as T,
    patch: async <T>(path: string, body: unknown) => {
      if (path !== paths.settings) throw notFound('PATCH', path);
      return (await api.updateSettings(body as never)) as T;
    },
    upload: async <T>(path: string, _field: string, file: File, options?: UploadOptions) => {
      if (path !== paths.attachments) throw notFound('POST', path);
      return { attachment: await api.uploadAttachment(file, options) } as T;
    },
    exists: async (path: string) => {
      const id = idIn(path, paths.attachment);
      if (id === null) throw notFound('HEAD', path);
      return api.attachmentExists(id);
    },
  };
};

const PAGE = 50;

/**
 * An in-memory server for one viewer, every call a `vi.fn` the tests can inspect or override
 * (`api`), and the API client the page is given (`client`).
 */
export const createFakeApi = (scenario: Scenario) => {
  const state = {
    auth: scenario.auth,
    jobs: scenario.jobs,
    conversations: scenario.conversations.map((item) => ({ ...item })),
    chats: new Map([...scenario.chats].map(([id, list]) => [id, [...list]])),
    nextId: 90_000,
    sentClientIds: new Map<string, Chat>(),
    settings: { ...DEFAULT_USER_SETTINGS },
    /** Uploads not sent yet, by id (a send claims them). */
    uploads: new Map<number, UploadedAttachment>(),
    nextUploadId: 5_000,
  };
  const isCandidate = state.auth.role === 'candidate';
  const find = (id: number): MessengerUser => {
    const item = state.conversations.find((candidate) => candidate.id === id);
    if (!item) throw new ApiError(404, 'Not found');
    return item;
  };
  const update = (id: number, change: Partial<MessengerUser>) => {
    const item = find(id);
    Object.assign(item, change);
    return { ...item };
  };

  /** An upload the server accepted: what `POST /user/attachments` answers. */
  const storeUpload = (file: File): UploadedAttachment => {
    const upload = {
      id: state.nextUploadId++,
      name: file.name,
      size: file.size,
      mime: file.type || 'application/octet-stream',
    };
    state.uploads.set(upload.id, upload);
    return upload;
  };

  const api = {
    getInitialData: vi.fn(async ({ jobId, limit, cursor, search, archived }: InitialDataParams) => {
      const matching = state.conversations.filter(
        (item) =>
          (jobId === null || item.job_id === jobId) &&
          (archived === undefined || isArchivedFor(item, state.auth.role) === archived) &&
          matchesSearch(item, search ?? '', state.auth.role),
      );
      const counts = {
        unread_total: state.conversations.reduce(
          (sum, item) => sum + item.is_seen_messages_count,
          0,
        ),
        archived_count: state.conversations.filter((item) => isArchivedFor(item, state.auth.role))
          .length,
      };
      if (limit === undefined)
        return {
          jobs: state.jobs,
          messengerUsers: matching.map((item) => ({ ...item })),
          auth: state.auth,
          ...counts,
        };
      // a fake cursor: the offset of the next page
      const start = cursor ? Number(cursor) : 0;
      const end = start + limit;
      return {
        jobs: state.jobs,
        messengerUsers: matching.slice(start, end).map((item) => ({ ...item })),
        auth: state.auth,
        ...counts,
        next_cursor: end < matching.length ? String(end) : null,
      };
    }),
    getMessages: vi.fn(async (body: GetMessageBody) => {
      const receiverId = Number(body.receiver_id);
      const jobId = body.job_id === null || body.job_id === undefined ? null : Number(body.job_id);
      const item = state.conversations.find(
        (candidate) =>
          (isCandidate ? candidate.company_id : candidate.candidate_id) === receiverId &&
          candidate.job_id === jobId,
      );
      if (!item) throw new ApiError(404, 'No such conversation');
      const all = [...(state.chats.get(item.id) ?? [])].sort((a, b) => a.id - b.id);
      const before = body.before === undefined ? Infinity : Number(body.before);
      const eligible = all.filter((chat) => chat.id < before);
      const limit = body.limit === undefined ? PAGE : Number(body.limit);
      const page = eligible.slice(-limit);
      item.is_seen_messages_count = 0;
      return {
        receiver: isCandidate
          ? { id: item.company.id, logo: item.company.logo, user: { name: item.company.user.name } }
          : {
              id: item.candidate.id,
              user: { name: item.candidate.user.name, image_url: item.candidate.user.image_url },
            },
        receiverJob: item.job,
        messages: groupChatsByDate(page),
        has_more: eligible.length > page.length,
        messengerUser: { ...item },
        application_group: isCandidate ? null : { id: 7, name: 'Shortlist' },
      };
    }),
    sendMessage: vi.fn(async (body: SendMessageBody) => {
      const item = find(Number(body.messenger_user));
      const repeated = body.client_id ? state.sentClientIds.get(body.client_id) : undefined;
      if (repeated) return { message: repeated, messengerUser: { ...item } };
      const files = (body.attachment_ids ?? []).map((id) => state.uploads.get(Number(id)));
      if (files.some((file) => !file))
        throw new ApiError(422, 'The given data was invalid.', {
          attachment_ids: ['Unknown or used upload.'],
        });
      const now = new Date().toISOString();
      const message: Chat = {
        id: state.nextId++,
        sender_id: state.auth.id,
        receiver_id: Number(body.receiver_id),
        job_id: item.job_id,
        messenger_user_id: item.id,
        message: body.message.trim(),
        messaging_date: now.slice(0, 10),
        messaging_time: '10:00 AM',
        created_at: now,
        seen_at: null,
        client_id: body.client_id ?? null,
        sender: { id: state.auth.id, name: state.auth.name },
        attachments: files.map((file) => ({ ...file!, url: `/user/attachments/${file!.id}` })),
      };
      for (const file of files) state.uploads.delete(file!.id);
      state.chats.set(item.id, [...(state.chats.get(item.id) ?? []), message]);
      if (body.client_id) state.sentClientIds.set(body.client_id, message);
      const record = update(item.id, {
        last_message: message.message || (message.attachments[0]?.name ?? ''),
        last_message_at: now,
      });
      return { message, messengerUser: record };
    }),
    /** Takes every file at once (half, then all of it sent); tests hold or refuse uploads with mockImplementation. */
    uploadAttachment: vi.fn(async (file: File, options?: UploadOptions) => {
      if (options?.signal?.aborted) throw new DOMException('Aborted', 'AbortError');
      options?.onProgress?.(file.size / 2, file.size);
      options?.onProgress?.(file.size, file.size);
      return storeUpload(file);
    }),
    attachmentExists: vi.fn(async (id: number) => state.uploads.has(id)),
    sendTyping: vi.fn(async () => undefined),
    markSeen: vi.fn(async (id: number) => ({
      messengerUser: update(id, { is_seen_messages_count: 0 }),
    })),
    archiveConversation: vi.fn(async (id: number) => ({
      messengerUser: update(id, isCandidate ? { candidate_archive: 1 } : { company_archive: 1 }),
    })),
    unarchiveConversation: vi.fn(async (id: number) => ({
      messengerUser: update(id, isCandidate ? { candidate_archive: 0 } : { company_archive: 0 }),
    })),
    logout: vi.fn(async () => undefined),
    login: vi.fn(async () => ({ user: state.auth })),
    getDemoAccounts: vi.fn(async () => []),
    getSettings: vi.fn(async () => ({ settings: { ...state.settings } })),
    updateSettings: vi.fn(async (patch: UserSettingsPatch) => {
      state.settings = { ...state.settings, ...patch };
      return { settings: { ...state.settings } };
    }),
  } satisfies FakeCalls;

  /** A message lands on the server (what the live event will announce); a repeat is ignored. */
  const receive = (chat: Chat) => {
    const stored = state.chats.get(chat.messenger_user_id) ?? [];
    if (stored.some((existing) => existing.id === chat.id)) return;
    state.chats.set(chat.messenger_user_id, [...stored, chat]);
    const item = state.conversations.find((candidate) => candidate.id === chat.messenger_user_id);
    if (!item) return;
    if (chat.receiver_id === state.auth.id) item.is_seen_messages_count += 1;
    item.last_message = chat.message.slice(0, 100);
    item.last_message_at = chat.created_at;
    item.last_message_time = chat.messaging_time;
  };

  /**
   * The event's `messengerUser` for this viewer: the message is stored (if it wasn't) and the
   * conversation as it then is; undefined for a conversation the fake server doesn't hold.
   */
  const viewAfter = (chat: Chat): MessengerUser | undefined => {
    receive(chat);
    const item = state.conversations.find((candidate) => candidate.id === chat.messenger_user_id);
    return item ? { ...item } : undefined;
  };

  return { api, client: clientFor(api), state, receive, viewAfter, storeUpload };
};

export type FakeApi = ReturnType<typeof createFakeApi>;
