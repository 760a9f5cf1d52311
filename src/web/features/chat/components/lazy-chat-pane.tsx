import { Component, lazy, Suspense, useState, type ComponentProps, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/spinner.js';
import { createComponentLoader } from '../../../lib/component-loader.js';
import type { ChatPane as ChatPaneComponent } from './chat-pane.js';
import { ChatPlaceholder } from './chat-placeholder.js';

/**
 * The open conversation (messages, composer, attachments, sending) is its own chunk, kept out of
 * the initial JS: the first paint shows the list and the placeholder, which is drawn from here.
 * `preloadChatPane` loads it once the page is idle after the first render, so that opening a
 * conversation rarely waits for it; a conversation opened before (a link naming one) shows a
 * spinner until it is there.
 *
 * Once loaded, the component is rendered directly (`createComponentLoader`).
 */
type PaneComponent = typeof ChatPaneComponent;

const loader = createComponentLoader<PaneComponent>(async () => {
  const module = await import('./chat-pane.js');
  return module.ChatPane;
});

export const preloadChatPane = loader.preload;

/** A `React.lazy` pane; a fresh one for each try (one whose import failed stays failed). */
const lazyChatPane = () => lazy(async () => ({ default: await preloadChatPane() }));

const Loading = () => {
  const { t } = useTranslation();
  return (
    <div className="page-status">
      <Spinner label={t('app.loading')} />
    </div>
  );
};

const LoadFailed = ({ onRetry }: { onRetry: () => void }) => {
  const { t } = useTranslation();
  return (
    <div className="page-status" role="alert" data-testid="chat-pane-load-error">
      <p>{t('chat.paneLoadFailed')}</p>
      <button type="button" className="button button--primary" onClick={onRetry}>
        {t('chat.tryAgain')}
      </button>
    </div>
  );
};

/** The pane's code failed to load (offline, a deploy removed the chunk): a message and a Retry. */
class LoadBoundary extends Component<
  { onRetry: () => void; children: ReactNode },
  { failed: boolean }
> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  retry = () => {
    this.setState({ failed: false });
    this.props.onRetry();
  };

  override render() {
    return this.state.failed ? <LoadFailed onRetry={this.retry} /> : this.props.children;
  }
}

/**
 * An open pane keeps the way it started: one that started before the code was there stays under
 * Suspense once it has arrived (switching to the loaded component, another element type, would
 * remount the open chat: uploads aborted, focus, scroll and the draft reset).
 */
const OpenChatPane = (props: ComponentProps<PaneComponent>) => {
  const [viaLazy] = useState(() => !loader.loaded());
  const [SuspendingChatPane, setSuspendingChatPane] = useState(lazyChatPane);
  if (!viaLazy) {
    const Pane = loader.loaded()!;
    return <Pane {...props} />;
  }
  return (
    <LoadBoundary onRetry={() => setSuspendingChatPane(() => lazyChatPane())}>
      <Suspense fallback={<Loading />}>
        <SuspendingChatPane {...props} />
      </Suspense>
    </LoadBoundary>
  );
};

/**
 * The chat pane: the placeholder while no conversation is open (drawn here whether or not the
 * pane's code has arrived, so its arrival does not replace the placeholder's elements under a
 * reader or a test), else the (lazily loaded) pane.
 */
export const LazyChatPane = (props: ComponentProps<PaneComponent>) => {
  if (!props.conversation) return <ChatPlaceholder />;
  return <OpenChatPane {...props} />;
};
