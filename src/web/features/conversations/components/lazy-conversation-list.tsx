import { lazy, type ComponentProps } from 'react';
import { createComponentLoader } from '../../../lib/component-loader.js';
import type { ConversationList as ConversationListComponent } from './conversation-list.js';

/**
 * The virtualized list (and @tanstack/virtual-core) is its own chunk, kept out of the initial JS.
 * `preloadConversationList` starts loading it at boot, in parallel with the first data.
 *
 * Once loaded, the component is rendered directly (`createComponentLoader`): through `React.lazy`
 * a spinner showed instead of rows the first time the list appeared (the drawer on small screens,
 * the first load on wide ones). `lazy` is only the fallback while the code is still on its way.
 */
type ListComponent = typeof ConversationListComponent;

const loader = createComponentLoader<ListComponent>(async () => {
  const module = await import('./conversation-list.js');
  return module.ConversationList;
});

export const preloadConversationList = loader.preload;

const SuspendingConversationList = lazy(async () => ({
  default: await preloadConversationList(),
}));

/** The conversation list: rendered at once when its code is there, else through Suspense. */
export const LazyConversationList = (props: ComponentProps<ListComponent>) => {
  const List = loader.loaded() ?? SuspendingConversationList;
  return <List {...props} />;
};
