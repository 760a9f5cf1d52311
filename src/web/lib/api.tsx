import { createContext, useContext, type ReactNode } from 'react';
import type {
  GetMessageBody,
  GetMessageResponse,
  InitialDataResponse,
  MessengerUserResponse,
  SendMessageBody,
  SendMessageResponse,
  UploadedAttachment,
} from '../../shared/api.js';
import type { UserSettingsPatch, UserSettingsResponse } from '../../shared/integration.js';
import type { AuthUser, Role } from '../../shared/models.js';
import type { UploadOptions } from './api-client.js';

/** Which conversations to ask for; with `limit`, one page of them (contract Part 2). */
export interface InitialDataParams {
  /** null = all jobs. */
  jobId: number | null;
  limit?: number;
  /** The previous page's `next_cursor`. */
  cursor?: string | null;
  search?: string;
  archived?: boolean;
}

export interface DemoAccount {
  email: string;
  name: string;
  role: Role;
}

/**
 * Every call the client makes. Each is one file in `features/<feature>/api/` taking the API client;
 * `app/create-api.ts` binds them all to one client, and components and hooks reach them only
 * through `useApi()` (tests provide a fake).
 */
export interface Api {
  login(credentials: { email: string; password: string }): Promise<{ user: AuthUser }>;
  getDemoAccounts(): Promise<DemoAccount[]>;
  logout(): Promise<void>;
  getInitialData(params: InitialDataParams): Promise<InitialDataResponse>;
  getMessages(body: GetMessageBody): Promise<GetMessageResponse>;
  sendMessage(body: SendMessageBody): Promise<SendMessageResponse>;
  /** One file (`POST /user/attachments`), with its progress; sent later by id with a message. */
  uploadAttachment(file: File, options?: UploadOptions): Promise<UploadedAttachment>;
  /** Whether an unsent upload (a draft's file) is still kept by the server. */
  attachmentExists(id: number): Promise<boolean>;
  /** Marks the other party's messages seen (the contract's path says "unseen": `GET /user/send/message/unseen/{id}`). */
  markSeen(messengerUserId: number): Promise<MessengerUserResponse>;
  /** The viewer is typing in that conversation (the server coalesces to one broadcast per 2 s). */
  sendTyping(messengerUserId: number): Promise<void>;
  archiveConversation(messengerUserId: number): Promise<MessengerUserResponse>;
  unarchiveConversation(messengerUserId: number): Promise<MessengerUserResponse>;
  getSettings(): Promise<UserSettingsResponse>;
  updateSettings(patch: UserSettingsPatch): Promise<UserSettingsResponse>;
}

const ApiContext = createContext<Api | null>(null);

export const ApiProvider = ({ api, children }: { api: Api; children: ReactNode }) => (
  <ApiContext.Provider value={api}>{children}</ApiContext.Provider>
);

export const useApi = (): Api => {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi must be used inside <ApiProvider>');
  return api;
};
