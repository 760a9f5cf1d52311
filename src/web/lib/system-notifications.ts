/** The browser's permission to show system notifications; `unsupported` when it has no Notification API. */
export type NotificationPermissionState = 'default' | 'granted' | 'denied' | 'unsupported';

export interface SystemNotificationOptions {
  body: string;
  /** One notification per tag: a newer one for the same conversation replaces the older. */
  tag: string;
  lang: string;
  dir: 'ltr' | 'rtl';
  /** Called when the user clicks the notification (it is closed afterwards). */
  onClick: () => void;
}

/** The Notification API behind a small service, so that the page's tests can fake it. */
export interface SystemNotifications {
  permission(): NotificationPermissionState;
  /** Asks the browser's permission; call it only from a user gesture. */
  requestPermission(): Promise<NotificationPermissionState>;
  show(title: string, options: SystemNotificationOptions): void;
}

const api = (): typeof Notification | undefined =>
  typeof Notification === 'undefined' ? undefined : Notification;

/** The real Notification API (or a service that says `unsupported` where there is none). */
export const createSystemNotifications = (): SystemNotifications => ({
  permission: () => api()?.permission ?? 'unsupported',
  requestPermission: async () => {
    const notification = api();
    if (!notification) return 'unsupported';
    try {
      return await notification.requestPermission();
    } catch (error) {
      console.error('Could not ask for the notification permission', error);
      return notification.permission;
    }
  },
  show: (title, { onClick, ...options }) => {
    const notification = api();
    if (!notification || notification.permission !== 'granted') return;
    try {
      const shown = new notification(title, options);
      shown.onclick = (event) => {
        event.preventDefault();
        onClick();
        shown.close();
      };
    } catch (error) {
      // e.g. Chrome on Android allows notifications only through a service worker
      console.error('Could not show a notification', error);
    }
  },
});

/** At most `max` characters, ending in an ellipsis when cut. */
export const truncateForNotification = (text: string, max = 140): string => {
  const characters = [...text.trim()];
  return characters.length <= max
    ? characters.join('')
    : `${characters.slice(0, max - 1).join('')}…`;
};
