import { createRoot } from 'react-dom/client';
import { preloadChatPane } from '../features/chat/components/lazy-chat-pane.js';
import { preloadConversationList } from '../features/conversations/components/lazy-conversation-list.js';
import { startEmbed } from '../features/embed/utils/start-embed.js';
import { getMessengerConfig } from '../lib/get-messenger-config.js';
import { createApiClient, isApiError, signInUrl } from '../lib/api-client.js';
import { createI18n, detectPageLanguage } from '../lib/i18n.js';
import type { Services } from '../lib/services.js';
import { createNotificationSound, unlockOnFirstGesture } from '../lib/sound.js';
import { createSystemNotifications } from '../lib/system-notifications.js';
import { createQueryClient } from './create-query-client.js';
import { MessagesApp } from './messages-app.js';
import { renderBootError, renderSessionEnded } from './render-boot-error.js';
import '../styles/messages-page.css';

const goToSignIn = () => location.assign(signInUrl(location));

const boot = async () => {
  // in a host's frame: its theme is on <html> before the first render, and a 401 tells the host
  // (`signin-required`) and shows a notice instead of navigating the frame to a sign-in page
  const embed = startEmbed(location.search);
  if (embed?.params.mode !== 'badge') void preloadConversationList();
  const container = document.getElementById('messageChatBox');
  if (!container) throw new Error('#messageChatBox is missing');
  const onUnauthorized = embed ? embed.session.end : goToSignIn;

  const bootClient = createApiClient({ onUnauthorized });
  const [appI18n, config] = await Promise.all([
    // `?lang=`, else the saved locale the server put into the page, else the browser's
    createI18n({ language: detectPageLanguage() }),
    getMessengerConfig(bootClient).catch((error: unknown) => error as Error),
  ]);
  if (config instanceof Error) {
    if (embed && isApiError(config) && config.status === 401) {
      renderSessionEnded(container, appI18n.i18n.t('embed.sessionEnded'));
      return;
    }
    console.error(config);
    renderBootError(container, appI18n.i18n.t('app.loadFailed'), appI18n.i18n.t('app.retry'));
    return;
  }

  let socketIdSource: (() => string | undefined) | null = null;
  const client = createApiClient({
    defaultQuery: () => ({ key: config.key, token: '' }),
    socketId: () => socketIdSource?.(),
    onUnauthorized,
  });
  const sound = createNotificationSound();
  unlockOnFirstGesture(sound);

  const services: Services = {
    config,
    connectRealtime: async (broadcaster) =>
      (await import('../lib/echo.js')).connectEcho(broadcaster),
    setSocketIdSource: (source) => {
      socketIdSource = source;
    },
    sound,
    notifications: createSystemNotifications(),
    appI18n,
    // a frame never leaves for a sign-in page (which could not be framed): signing out there ends
    // the embedded session as a 401 does (the host is told `signin-required`)
    navigate: embed ? embed.session.end : (url) => location.replace(url),
    initialSearch: location.search,
  };

  createRoot(container).render(
    <MessagesApp
      client={client}
      services={services}
      queryClient={createQueryClient()}
      embed={embed}
    />,
  );
  // the open conversation's code, once the first paint is done (lazy-chat-pane.tsx)
  const preload = () => void preloadChatPane().catch(() => undefined);
  if (typeof requestIdleCallback === 'function') requestIdleCallback(preload, { timeout: 2_000 });
  else setTimeout(preload, 500);
};

void boot();
