import { createContext, useContext, type ReactNode } from 'react';
import type {
  GetMessageBody,
  GetMessageResponse,
  InitialDataResponse,
  MessengerConfig,
  MessengerUserResponse,
  SendMessageBody,
  SendMessageResponse,
} from '../../shared/api.js';
import type { AppI18n } from './i18n.js';
import type { ConnectRealtime } from './realtime.js';
import type { NotificationSound } from './sound.js';

/** Every messaging call the page makes; `app/create-messenger-api.ts` builds it, tests fake it. */
export interface MessengerApi {
  getInitialData(params: { jobId: number | null }): Promise<InitialDataResponse>;
  getMessages(body: GetMessageBody): Promise<GetMessageResponse>;
  sendMessage(body: SendMessageBody): Promise<SendMessageResponse>;
  markUnseen(messengerUserId: number): Promise<MessengerUserResponse>;
  archiveConversation(messengerUserId: number): Promise<MessengerUserResponse>;
  unarchiveConversation(messengerUserId: number): Promise<MessengerUserResponse>;
  logout(): Promise<void>;
}

export interface Services {
  api: MessengerApi;
  config: MessengerConfig;
  /** Opens the live connection (loaded lazily). */
  connectRealtime: ConnectRealtime;
  /** Tells the API client which socket id to send as `X-Socket-ID`. */
  setSocketIdSource: (source: (() => string | undefined) | null) => void;
  sound: NotificationSound;
  appI18n: AppI18n;
  /** Leaves the page (a full navigation); tests record it. */
  navigate: (url: string) => void;
  /** The page URL's query string at load (`target`, `tab`). */
  initialSearch: string;
}

const ServicesContext = createContext<Services | null>(null);

export const ServicesProvider = ({
  services,
  children,
}: {
  services: Services;
  children: ReactNode;
}) => <ServicesContext.Provider value={services}>{children}</ServicesContext.Provider>;

export const useServices = (): Services => {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices must be used inside <ServicesProvider>');
  return services;
};
