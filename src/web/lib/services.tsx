import { createContext, useContext, type ReactNode } from 'react';
import type { MessengerConfig } from '../../shared/messenger-config.js';
import type { AppI18n } from './i18n.js';
import type { ConnectRealtime } from './realtime-connection.js';
import type { NotificationSound } from './sound.js';
import type { SystemNotifications } from './system-notifications.js';

/** What the messaging page needs besides the API calls (those come from `useApi()`). */
export interface Services {
  config: MessengerConfig;
  /** Opens the live connection (loaded lazily). */
  connectRealtime: ConnectRealtime;
  /** Tells the API client which socket id to send as `X-Socket-ID`. */
  setSocketIdSource: (source: (() => string | undefined) | null) => void;
  sound: NotificationSound;
  /** System notifications (the browser's Notification API). */
  notifications: SystemNotifications;
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
