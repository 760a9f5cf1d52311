import { render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ResourceLanguage } from 'i18next';
import { vi } from 'vitest';
import { createQueryClient } from '../../src/web/app/create-query-client.js';
import { MessagesApp } from '../../src/web/app/messages-app.js';
import { createI18n, type Language } from '../../src/web/lib/i18n.js';
import type { Services } from '../../src/web/lib/services.js';
import type { ApiClient } from '../../src/web/lib/api-client.js';
import type { Embed } from '../../src/web/features/embed/hooks/use-embed.js';
import type { NotificationPermissionState } from '../../src/web/lib/system-notifications.js';
import type { UserSettings } from '../../src/shared/integration.js';
import { paths } from '../../src/shared/paths.js';
import { createFakeApi } from './fake-api.js';
import { createFakeNotifications } from './fake-notifications.js';
import { createFakeRealtime } from './fake-realtime.js';
import { candidateScenario, type Scenario } from './fixtures.js';
import { setSmallScreen } from './setup.js';
import { preloadChatPane } from '../../src/web/features/chat/components/lazy-chat-pane.js';

/** Vitest runs from the repository root. */
const LANG_DIR = resolve(process.cwd(), 'src/web/public/lang');

const readTranslations = (language: Language): ResourceLanguage =>
  JSON.parse(readFileSync(resolve(LANG_DIR, `${language}.json`), 'utf8')) as ResourceLanguage;

export const translations = { en: readTranslations('en'), ar: readTranslations('ar') };

export const createTestI18n = (language: Language = 'en') =>
  createI18n({ language, load: async (lng) => translations[lng] });

export const testConfig = {
  key: 'test-key',
  locales: ['en', 'ar'],
  fallbackLocale: 'en',
  broadcaster: { key: 'pk', cluster: 'mt1', forceTLS: false, authEndpoint: paths.broadcastingAuth },
};

interface RenderOptions {
  scenario?: Scenario;
  language?: Language;
  search?: string;
  /** Start on a small screen: the list lives in the drawer, so wait for its button instead of rows. */
  smallScreen?: boolean;
  /** The browser's notification permission at load ('default' unless told). */
  notificationPermission?: NotificationPermissionState;
  /** The list's later pages never arrive (the first page is all the page holds). */
  holdLaterPages?: boolean;
  /** The viewer's settings on the server at load (the defaults unless told). */
  settings?: Partial<UserSettings>;
  /** In a host's frame (features/embed): conversation and badge modes show no list rows. */
  embed?: Embed;
  /** The page's API client instead of the fake server's (a 401's wiring). */
  client?: ApiClient;
  /** Wait for nothing but the first render (a page that loads nothing). */
  noWait?: boolean;
}

/** The whole page on a fake server, a fake live connection and a fake sound. */
export const renderMessagesPage = async ({
  scenario = candidateScenario(),
  language = 'en',
  search = '',
  smallScreen = false,
  notificationPermission = 'default',
  holdLaterPages = false,
  settings = {},
  embed,
  client,
  noWait = false,
}: RenderOptions = {}) => {
  if (smallScreen) setSmallScreen(true);
  const fake = createFakeApi(scenario);
  Object.assign(fake.state.settings, settings);
  if (holdLaterPages) {
    const answer = fake.api.getInitialData.getMockImplementation()!;
    fake.api.getInitialData.mockImplementation((params) =>
      params.cursor ? new Promise(() => undefined) : answer(params),
    );
  }
  const realtime = createFakeRealtime(fake.viewAfter);
  const sound = { play: vi.fn(), unlock: vi.fn() };
  const appI18n = await createTestI18n(language);
  const navigate = vi.fn();
  const notifications = createFakeNotifications();
  notifications.state.permission = notificationPermission;
  const services: Services = {
    config: testConfig,
    connectRealtime: realtime.connect,
    setSocketIdSource: vi.fn(),
    sound,
    notifications: notifications.service,
    appI18n,
    navigate,
    initialSearch: search,
  };
  const queryClient = createQueryClient({ retry: false });
  const user = userEvent.setup();
  // the page loads the chat pane's code once idle (messages-main.tsx): here it is there already
  await preloadChatPane();
  const view = render(
    <MessagesApp
      client={client ?? fake.client}
      services={services}
      queryClient={queryClient}
      embed={embed ?? null}
    />,
  );
  const page = {
    ...view,
    fake,
    api: fake.api,
    realtime,
    sound,
    notifications,
    user,
    appI18n,
    navigate,
    queryClient,
  };
  if (noWait) return page;
  if (embed && embed.params.mode !== 'inbox') {
    await waitFor(() => expect(realtime.listening).toBe(true));
    return page;
  }
  // small screens start on the list (the drawer button shows once a conversation is open)
  await waitFor(() =>
    expect(
      screen.queryAllByTestId('conversation-row').length +
        (smallScreen ? screen.queryAllByTestId('open-drawer').length : 0),
    ).toBeGreaterThan(0),
  );
  await waitFor(() => expect(realtime.listening).toBe(true));
  return page;
};

export const conversationList = () => screen.getByTestId('conversation-list');
export const archivedList = () => screen.getByTestId('archived-list');

/** The row button whose accessible name starts with the other party's name. */
export const rowFor = (name: string | RegExp, container: HTMLElement = document.body) =>
  within(container).getByRole('button', {
    name: typeof name === 'string' ? new RegExp(`^${name}`) : name,
  });

export const rowIds = (container: HTMLElement) =>
  within(container)
    .queryAllByTestId('conversation-row')
    .map((row) => Number(row.getAttribute('data-conversation-id')));

export const messageTexts = () =>
  screen
    .queryAllByTestId('chat-message')
    .map((item) => item.querySelector('.message__text')?.textContent);
