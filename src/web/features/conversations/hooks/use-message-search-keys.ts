import { useRef, type KeyboardEvent } from 'react';

/**
 * The search box's keys in messages mode: Down goes to the first result (a focusable
 * `[data-search-result]` inside `resultsRef`); Escape empties the box (the list comes back), then
 * goes back to conversations.
 */
export const useMessageSearchKeys = (
  messageSearch:
    | {
        mode: 'conversations' | 'messages';
        onModeChange: (mode: 'conversations' | 'messages') => void;
        query: string;
        onQueryChange: (value: string) => void;
      }
    | undefined,
) => {
  const resultsRef = useRef<HTMLDivElement>(null);
  const onSearchKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (!messageSearch || messageSearch.mode !== 'messages') return;
    if (event.key === 'ArrowDown') {
      const first = resultsRef.current?.querySelector<HTMLElement>('[data-search-result]');
      if (!first) return;
      event.preventDefault();
      first.focus();
      return;
    }
    if (event.key !== 'Escape') return;
    event.preventDefault();
    if (messageSearch.query) messageSearch.onQueryChange('');
    else messageSearch.onModeChange('conversations');
  };
  return { resultsRef, onSearchKeyDown };
};
