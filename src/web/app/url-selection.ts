/** `target` (the other party's id) and `tab` (the conversation id) open a conversation on load. */
export const readSelectionFromSearch = (search: string): { target: number; tab: number } | null => {
  const params = new URLSearchParams(search);
  const target = Number(params.get('target'));
  const tab = Number(params.get('tab'));
  return Number.isInteger(target) && target > 0 && Number.isInteger(tab) && tab > 0
    ? { target, tab }
    : null;
};

/** Keeps the open conversation in the address (so a reload or sign-in round trip comes back to it). */
export const writeSelectionToUrl = (target: number | null, tab: number): void => {
  if (typeof history === 'undefined' || typeof location === 'undefined') return;
  const url = new URL(location.href);
  if (target === null) url.searchParams.delete('target');
  else url.searchParams.set('target', String(target));
  url.searchParams.set('tab', String(tab));
  history.replaceState(history.state, '', url);
};
