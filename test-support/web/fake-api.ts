import { vi } from 'vitest';
import type { UploadedAttachment } from '../../src/shared/attachment-uploads.js';
import type { GetMessageBody, SendMessageBody } from '../../src/shared/messages.js';
import { DEFAULT_USER_SETTINGS, type UserSettingsPatch } from '../../src/shared/integration.js';
import type { Chat, MessengerUser } from '../../src/shared/models.js';
import type { CreateReportBody } from '../../src/shared/safety.js';
import type { MessageUpdatedEvent } from '../../src/shared/events.js';
import {
  EDIT_WINDOW_PASSED_MESSAGE,
  EDIT_WINDOW_SECONDS_DEFAULT,
  messageChangesPaths,
} from '../../src/shared/message-changes.js';
import { messageSearchPaths } from '../../src/shared/message-search.js';
import { savedRepliesPaths } from '../../src/shared/saved-replies.js';
import type { deleteMessage } from '../../src/web/features/chat/api/delete-message.js';
import type { editMessage } from '../../src/web/features/chat/api/edit-message.js';
import { paths } from '../../src/shared/paths.js';
import { safetyPaths } from '../../src/shared/safety-paths.js';
import type { getDemoAccounts } from '../../src/web/features/auth/api/get-demo-accounts.js';
import type { login } from '../../src/web/features/auth/api/login.js';
import type { logout } from '../../src/web/features/auth/api/logout.js';
import type { attachmentExists } from '../../src/web/features/chat/api/attachment-exists.js';
import type { getMessages } from '../../src/web/features/chat/api/get-messages.js';
import type { sendMessage } from '../../src/web/features/chat/api/send-message.js';
import type { sendTyping } from '../../src/web/features/chat/api/send-typing.js';
import type { uploadAttachment } from '../../src/web/features/chat/api/upload-attachment.js';
import type {
  archiveConversation,
  unarchiveConversation,
} from '../../src/web/features/conversations/api/archive-conversation.js';
import type {
  getInitialData,
  InitialDataParams,
} from '../../src/web/features/conversations/api/get-initial-data.js';
import type { markSeen } from '../../src/web/features/conversations/api/mark-seen.js';
import type { getEmbedConversation } from '../../src/web/features/embed/api/get-embed-conversation.js';
import type { openEmbedConversation } from '../../src/web/features/embed/api/open-embed-conversation.js';
import type { EmbedConversationRef } from '../../src/shared/embed-protocol.js';
import type { blockUser } from '../../src/web/features/safety/api/block-user.js';
import type { reportConversation } from '../../src/web/features/safety/api/report-conversation.js';
import type { unblockUser } from '../../src/web/features/safety/api/unblock-user.js';
import type {
  searchMessages,
  SearchMessagesParams,
} from '../../src/web/features/message-search/api/search-messages.js';
import {
  queryWords,
  SEARCH_LIMIT_DEFAULT,
  searchSnippet,
  searchWords,
} from '../../src/shared/search-text.js';
import type { getSettings } from '../../src/web/features/settings/api/get-settings.js';
import type { updateSettings } from '../../src/web/features/settings/api/update-settings.js';
import type { createTemplate } from '../../src/web/features/templates/api/create-template.js';
import type { deleteTemplate } from '../../src/web/features/templates/api/delete-template.js';
import type { getTemplates } from '../../src/web/features/templates/api/get-templates.js';
import type { updateTemplate } from '../../src/web/features/templates/api/update-template.js';
import type { Template } from '../../src/shared/saved-replies.js';
import { groupChatsByDate } from '../../src/web/features/chat/utils/thread-cache.js';
import {
  ApiError,
  type ApiClient,
  type QueryValue,
  type UploadOptions,
} from '../../src/web/lib/api-client.js';
import {
  isArchivedFor,
  matchesSearch,
} from '../../src/web/features/conversations/utils/conversation-view.js';
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
  openEmbedConversation: Call<typeof openEmbedConversation>;
  getEmbedConversation: Call<typeof getEmbedConversation>;
  sendTyping: Call<typeof sendTyping>;
  archiveConversation: Call<typeof archiveConversation>;
  unarchiveConversation: Call<typeof unarchiveConversation>;
  getSettings: Call<typeof getSettings>;
  updateSettings: Call<typeof updateSettings>;
  blockUser: Call<typeof blockUser>;
  unblockUser: Call<typeof unblockUser>;
  reportConversation: Call<typeof reportConversation>;
  editMessage: Call<typeof editMessage>;
  deleteMessage: Call<typeof deleteMessage>;
  searchMessages: Call<typeof searchMessages>;
  getTemplates: Call<typeof getTemplates>;
  createTemplate: Call<typeof createTemplate>;
  updateTemplate: Call<typeof updateTemplate>;
  deleteTemplate: Call<typeof deleteTemplate>;
}

/** The id in a path made by `pathOf` (e.g. `paths.archive`), or null when the path is another. */
const idIn = (path: string, pathOf: (id: number) => string): number | null => {
  const match = new RegExp(`^${pathOf(0).replace(/\/0(?=\/|$)/, '/(\\d+)')}$`).exec(path);
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
    if (path === messageSearchPaths.searchMessages)
      return api.searchMessages({
        q: String(query?.q ?? ''),
        ...(query?.limit === undefined ? {} : { limit: Number(query.limit) }),
        cursor: query?.cursor === undefined ? null : String(query.cursor),
      });
    if (path === savedRepliesPaths.templates) return api.getTemplates();
    const unseen = idIn(path, paths.unseen);
    if (unseen !== null) return api.markSeen(unseen);
    const embedded = idIn(path, paths.embedConversation);
    if (embedded !== null) return api.getEmbedConversation(embedded);
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
    if (path === safetyPaths.blocks) return api.blockUser((body as { user_id: number }).user_id);
    if (path === safetyPaths.reports) return api.reportConversation(body as never);
    if (path === savedRepliesPaths.templates) return api.createTemplate(body as never);
    if (path === paths.embedConversations) return api.openEmbedConversation(body as never);
    throw notFound('POST', path);
  };
  return {
    get: async <T>(path: string, options?: { query?: Record<string, QueryValue> }) =>
      (await get(path, options?.query)) as T,
    post: async <T>(path: string, body?: unknown) => (await post(path, body)) as T,
    patch: async <T>(path: string, body: unknown) => {
      const edited = idIn(path, messageChangesPaths.message);
      if (edited !== null) return (await api.editMessage(edited, body as never)) as T;
      const template = idIn(path, savedRepliesPaths.template);
      if (template !== null) return (await api.updateTemplate(template, body as never)) as T;
      if (path !== paths.settings) throw notFound('PATCH', path);
      return (await api.updateSettings(body as never)) as T;
    },
    upload: async <T>(path: string, _field: string, file: File, options?: UploadOptions) => {
      if (path !== paths.attachments) throw notFound('POST', path);
      return { attachment: await api.uploadAttachment(file, options) } as T;
    },
    delete: async <T>(path: string) => {
      const deleted = idIn(path, messageChangesPaths.message);
      if (deleted !== null) return (await api.deleteMessage(deleted)) as T;
      const template = idIn(path, savedRepliesPaths.template);
      if (template !== null) return (await api.deleteTemplate(template)) as T;
      const blocked = idIn(path, safetyPaths.block);
      if (blocked === null) throw notFound('DELETE', path);
      return (await api.unblockUser(blocked)) as T;
    },
    exists: async (path: string) => {
      const id = idIn(path, paths.attachment);
      if (id === null) throw notFound('HEAD', path);
      return api.attachmentExists(id);
    },
  };
};

const PAGE = 50;

/** The host's ids of the fake server's users and jobs: `user-<id>`, `job-<id>`. */
export const hostIdOf = (id: number, kind: 'user' | 'job' = 'user'): string => `${kind}-${id}`;

const embedRefOf = (item: MessengerUser): EmbedConversationRef => ({
  id: item.id,
  company_external_id: hostIdOf(item.company_id),
  candidate_external_id: hostIdOf(item.candidate_id),
  job_external_id: item.job_id === null ? null : hostIdOf(item.job_id, 'job'),
});

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
    /** The reports the viewer sent, in order. */
    reports: [] as CreateReportBody[],
    /** The viewer's saved replies (kept in the server's order: by name ignoring case). */
    templates: (scenario.templates ?? []).map((item) => ({ ...item })),
    nextTemplateId: 700,
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

  /** The other party's user id (whom the viewer blocks). */
  const otherPartyId = (item: MessengerUser) => (isCandidate ? item.company_id : item.candidate_id);
  /** A block is of the person: every conversation with them says so. */
  const setBlocked = (userId: number, blocked: boolean) => {
    for (const item of state.conversations)
      if (otherPartyId(item) === userId) item.blocked = blocked;
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

  // ---- Editing and deleting messages (contract: "Working faster") ----
  const editWindowMs = EDIT_WINDOW_SECONDS_DEFAULT * 1000;
  const findChat = (id: number): Chat => {
    for (const list of state.chats.values()) {
      const chat = list.find((candidate) => candidate.id === id);
      if (chat) return chat;
    }
    throw new ApiError(404, 'Not found.');
  };
  /** The server's rules: the sender only, not deleted, within the window (422 on `message`). */
  const changeable = (id: number): Chat => {
    const chat = findChat(id);
    if (chat.sender_id !== state.auth.id && chat.receiver_id !== state.auth.id)
      throw new ApiError(404, 'Not found.');
    if (chat.sender_id !== state.auth.id) throw new ApiError(403, 'This action is unauthorized.');
    if (chat.deleted_at !== null || Date.now() - Date.parse(chat.created_at) >= editWindowMs)
      throw new ApiError(422, EDIT_WINDOW_PASSED_MESSAGE, {
        message: [EDIT_WINDOW_PASSED_MESSAGE],
      });
    return chat;
  };
  /** Stores a new version of a message; the conversation's preview follows when it was the latest. */
  const storeVersion = (
    chat: Chat,
    change: Partial<Chat>,
  ): { chat: Chat; record: MessengerUser } => {
    const updated = { ...chat, ...change };
    const list = state.chats.get(chat.messenger_user_id) ?? [];
    state.chats.set(
      chat.messenger_user_id,
      list.map((candidate) => (candidate.id === chat.id ? updated : candidate)),
    );
    const item = find(chat.messenger_user_id);
    const kept = (state.chats.get(chat.messenger_user_id) ?? [])
      .filter((candidate) => candidate.deleted_at === null)
      .sort((a, b) => a.id - b.id);
    const newestId = Math.max(...list.map((candidate) => candidate.id));
    if (chat.id === newestId) {
      const newest = kept[kept.length - 1];
      item.last_message = newest
        ? (newest.message || (newest.attachments[0]?.name ?? '')).slice(0, 100)
        : null;
    }
    return { chat: updated, record: { ...item } };
  };
  const messageEditCalls = () => ({
    editMessage: vi.fn(async (id: number, body: { message: string }) => {
      const { chat, record } = storeVersion(changeable(id), {
        message: body.message.trim(),
        edited_at: new Date().toISOString(),
      });
      return { message: chat, messengerUser: record };
    }),
    deleteMessage: vi.fn(async (id: number) => {
      storeVersion(changeable(id), {
        message: '',
        attachments: [],
        deleted_at: new Date().toISOString(),
      });
    }),
  });
  /**
   * The other party (or the viewer in another tab) edited (`text`) or deleted (`null`) message `id`
   * on the server: the `MessageUpdated` event the viewer's channel then gets.
   */
  const changedElsewhere = (id: number, text: string | null): MessageUpdatedEvent => {
    const now = new Date().toISOString();
    const { chat, record } = storeVersion(
      findChat(id),
      text === null
        ? { message: '', attachments: [], deleted_at: now }
        : { message: text, edited_at: now },
    );
    return { messenger_user_id: chat.messenger_user_id, message: chat, messengerUser: record };
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
        edited_at: null,
        deleted_at: null,
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
    // the fake opens only the conversations it holds (the server would create a missing one)
    openEmbedConversation: vi.fn(
      async (body: { company: string; candidate: string; job?: string | null }) => {
        const item = state.conversations.find((candidate) => {
          const ref = embedRefOf(candidate);
          return (
            ref.company_external_id === body.company &&
            ref.candidate_external_id === body.candidate &&
            ref.job_external_id === (body.job ?? null)
          );
        });
        if (!item) throw new ApiError(403, 'You can open only your own conversations.');
        return { messengerUser: { ...item }, conversation: embedRefOf(item) };
      },
    ),
    getEmbedConversation: vi.fn(async (id: number) => {
      const item = state.conversations.find((candidate) => candidate.id === id);
      if (!item) throw new ApiError(404, 'No such conversation.');
      return { conversation: embedRefOf(item) };
    }),
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
    blockUser: vi.fn(async (userId: number) => {
      setBlocked(userId, true);
      return undefined;
    }),
    unblockUser: vi.fn(async (userId: number) => {
      setBlocked(userId, false);
    }),
    reportConversation: vi.fn(async (body: CreateReportBody) => {
      const item = find(Number(body.messenger_user_id));
      if (body.block === true) setBlocked(otherPartyId(item), true);
      state.reports.push(body);
      return {
        report: {
          id: state.reports.length,
          status: 'open' as const,
          created_at: new Date().toISOString(),
        },
      };
    }),
    ...messageEditCalls(),
    /**
     * As the server searches: the viewer's messages (deleted ones left out) holding, for every word
     * of the query, a word that starts with it (case and diacritics ignored), newest first; the
     * cursor is the offset of the next page.
     */
    searchMessages: vi.fn(
      async ({ q, limit = SEARCH_LIMIT_DEFAULT, cursor }: SearchMessagesParams) => {
        const words = queryWords(q);
        const matching = [...state.chats.values()]
          .flat()
          .filter((chat) => {
            if (chat.deleted_at !== null || words.length === 0) return false;
            const text = searchWords(chat.message);
            return words.every((word) => text.some((candidate) => candidate.startsWith(word)));
          })
          .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id);
        const start = cursor ? Number(cursor) : 0;
        const end = start + limit;
        return {
          results: matching.slice(start, end).map((chat) => ({
            message: chat,
            messenger_user: { ...find(chat.messenger_user_id) },
            snippet: searchSnippet(chat.message, q),
          })),
          next_cursor: end < matching.length ? String(end) : null,
        };
      },
    ),
    getTemplates: vi.fn(async () => ({
      templates: [...state.templates]
        .sort(
          (a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase(), 'en') || a.id - b.id,
        )
        .map((item) => ({ ...item })),
    })),
    createTemplate: vi.fn(async (body: { name: string; body: string }) => {
      const template: Template = {
        id: state.nextTemplateId++,
        name: body.name.trim(),
        body: body.body.trim(),
        updated_at: new Date().toISOString(),
      };
      state.templates.push(template);
      return { template: { ...template } };
    }),
    updateTemplate: vi.fn(async (id: number, body: { name?: string; body?: string }) => {
      const template = state.templates.find((item) => item.id === id);
      if (!template) throw new ApiError(404, 'No such saved reply.');
      Object.assign(template, {
        ...(body.name === undefined ? {} : { name: body.name.trim() }),
        ...(body.body === undefined ? {} : { body: body.body.trim() }),
        updated_at: new Date().toISOString(),
      });
      return { template: { ...template } };
    }),
    deleteTemplate: vi.fn(async (id: number) => {
      const before = state.templates.length;
      state.templates = state.templates.filter((item) => item.id !== id);
      if (state.templates.length === before) throw new ApiError(404, 'No such saved reply.');
      return undefined;
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

  return {
    api,
    client: clientFor(api),
    state,
    receive,
    viewAfter,
    storeUpload,
    changedElsewhere,
  };
};

export type FakeApi = ReturnType<typeof createFakeApi>;
