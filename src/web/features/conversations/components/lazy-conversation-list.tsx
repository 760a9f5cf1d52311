import { lazy } from 'react';

/**
 * The virtualized list (and @tanstack/virtual-core) is its own chunk. `preloadConversationList`
 * starts loading it at boot, in parallel with the first data, so it is there when the rows are.
 */
const load = () => import('./conversation-list.js');
let pending: ReturnType<typeof load> | null = null;

export const preloadConversationList = (): ReturnType<typeof load> => {
  pending ??= load();
  return pending;
};

export const LazyConversationList = lazy(async () => ({
  default: (await preloadConversationList()).ConversationList,
}));
