import { lazy, type ComponentProps } from 'react';
import type { ConversationList as ConversationListComponent } from './conversation-list.js';

/**
 * The virtualized list (and @tanstack/virtual-core) is its own chunk, kept out of the initial JS.
 * `preloadConversationList` starts loading it at boot, in parallel with the first data.
 *
 * Once loaded, the component is kept here and rendered directly: a `React.lazy` component always
 * suspends on its first render (even when its import has long resolved), which showed a spinner
 * instead of rows the first time the list appeared (the drawer on small screens, the first load on
 * wide ones). `lazy` is only the fallback while the code is really still on its way.
 */
type ListComponent = typeof ConversationListComponent;

let loaded: ListComponent | null = null;
let pending: Promise<ListComponent> | null = null;

export const preloadConversationList = (): Promise<ListComponent> => {
  pending ??= import('./conversation-list.js').then(
    (module) => {
      loaded = module.ConversationList;
      return loaded;
    },
    (error: unknown) => {
      pending = null; // the next call tries again
      throw error;
    },
  );
  return pending;
};

const SuspendingConversationList = lazy(async () => ({
  default: await preloadConversationList(),
}));

/** The conversation list: rendered at once when its code is there, else through Suspense. */
export const LazyConversationList = (props: ComponentProps<ListComponent>) => {
  const List = loaded ?? SuspendingConversationList;
  return <List {...props} />;
};
