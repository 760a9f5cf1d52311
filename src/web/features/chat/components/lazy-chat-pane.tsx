import { lazy, Suspense, type ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/spinner.js';
import type { ChatPane as ChatPaneComponent } from './chat-pane.js';
import { ChatPlaceholder } from './chat-placeholder.js';

/**
 * The open conversation (messages, composer, attachments, sending) is its own chunk, kept out of
 * the initial JS: the first paint shows the list and the placeholder, which is drawn from here.
 * `preloadChatPane` loads it once the page is idle after the first render, so that opening a
 * conversation rarely waits for it; a conversation opened before (a link naming one) shows a
 * spinner until it is there.
 *
 * Once loaded, the component is kept here and rendered directly (a `React.lazy` component suspends
 * on its first render even when its import has long resolved; see lazy-conversation-list.tsx).
 */
type PaneComponent = typeof ChatPaneComponent;

let loaded: PaneComponent | null = null;
let pending: Promise<PaneComponent> | null = null;

export const preloadChatPane = (): Promise<PaneComponent> => {
  pending ??= import('./chat-pane.js').then(
    (module) => {
      loaded = module.ChatPane;
      return loaded;
    },
    (error: unknown) => {
      pending = null; // the next call tries again
      throw error;
    },
  );
  return pending;
};

const SuspendingChatPane = lazy(async () => ({ default: await preloadChatPane() }));

const Loading = () => {
  const { t } = useTranslation();
  return (
    <div className="page-status">
      <Spinner label={t('app.loading')} />
    </div>
  );
};

/** The chat pane: the placeholder while no conversation is open, else the (lazily loaded) pane. */
export const LazyChatPane = (props: ComponentProps<PaneComponent>) => {
  if (loaded) {
    const Pane = loaded;
    return <Pane {...props} />;
  }
  if (!props.conversation) return <ChatPlaceholder />;
  return (
    <Suspense fallback={<Loading />}>
      <SuspendingChatPane {...props} />
    </Suspense>
  );
};
