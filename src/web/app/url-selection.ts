/** `target` (the other party's id) and `tab` (the conversation id) open a conversation on load. */
export const readSelectionFromSearch = (search: string): { target: number; tab: number } | null => {
  const params = new URLSearchParams(search);
  const target = Number(params.get('target'));
  const tab = Number(params.get('tab'));
  return Number.isInteger(target) && target > 0 && Number.isInteger(tab) && tab > 0
    ? { target, tab }
    : null;
};

/**
 * Keeps the open conversation in the address (so a reload or sign-in round trip comes back to it).
 * `push` makes it a history entry: opening a conversation from the list, so Back returns to the list.
 */
export const writeSelectionToUrl = (
  target: number | null,
  tab: number,
  mode: 'push' | 'replace' = 'replace',
): void => {
  if (typeof history === 'undefined' || typeof location === 'undefined') return;
  const url = new URL(location.href);
  if (target === null) url.searchParams.delete('target');
  else url.searchParams.set('target', String(target));
  url.searchParams.set('tab', String(tab));
  if (url.href === location.href) return;
  if (mode === 'push') history.pushState({ messengerConversation: tab }, '', url);
  else history.replaceState(history.state, '', url);
};

/** Whether the current history entry is one this page pushed for an open conversation. */
export const isPushedConversationEntry = (): boolean =>
  typeof history !== 'undefined' &&
  typeof history.state === 'object' &&
  history.state !== null &&
  'messengerConversation' in history.state;

/** The list, with no conversation open: the address loses `target` and `tab`. */
export const clearSelectionFromUrl = (): void => {
  if (typeof history === 'undefined' || typeof location === 'undefined') return;
  const url = new URL(location.href);
  url.searchParams.delete('target');
  url.searchParams.delete('tab');
  if (url.href !== location.href) history.replaceState(null, '', url);
};
