import { vi } from 'vitest';
import type {
  NotificationPermissionState,
  SystemNotificationOptions,
  SystemNotifications,
} from '../../src/web/lib/system-notifications.js';

export interface ShownNotification extends Omit<SystemNotificationOptions, 'onClick'> {
  title: string;
  /** What clicking the system notification does. */
  click: () => void;
}

/**
 * System notifications the test drives: `permission` is what the browser says now, `answer` what it
 * says when asked (a user gesture); `shown` records every notification the page showed.
 */
export const createFakeNotifications = () => {
  const state = {
    permission: 'default' as NotificationPermissionState,
    answer: 'granted' as NotificationPermissionState,
  };
  const shown: ShownNotification[] = [];
  const service = {
    permission: vi.fn(() => state.permission),
    requestPermission: vi.fn(async () => {
      if (state.permission === 'default') state.permission = state.answer;
      return state.permission;
    }),
    show: vi.fn((title: string, { onClick, ...options }: SystemNotificationOptions) => {
      shown.push({ title, ...options, click: onClick });
    }),
  } satisfies SystemNotifications;
  return { state, shown, service };
};

export type FakeNotifications = ReturnType<typeof createFakeNotifications>;
