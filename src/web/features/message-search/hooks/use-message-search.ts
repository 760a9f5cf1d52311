import { useState } from 'react';
import { useDebouncedValue } from '../../../lib/use-debounced-value.js';
import { isSearchableQuery } from '../api/search-messages.js';

/** Typing settles this long before the server is asked (as the conversations' server search). */
export const MESSAGE_SEARCH_DEBOUNCE_MS = 300;

/** What the list's search box searches: the conversations (names, job titles) or the messages. */
export type SearchMode = 'conversations' | 'messages';

/**
 * The search box's messages mode: its text, and whether results take the list's place (a query of
 * at least the contract's minimum length).
 */
export const useMessageSearch = () => {
  const [mode, setMode] = useState<SearchMode>('conversations');
  const [query, setQuery] = useState('');
  // settles here, where it lives while results come and go: the first characters ask nothing either
  const settledQuery = useDebouncedValue(
    mode === 'messages' ? query.trim() : '',
    MESSAGE_SEARCH_DEBOUNCE_MS,
  );
  return {
    mode,
    setMode,
    query,
    setQuery,
    /** The text once typing settled: what the server is asked. */
    settledQuery,
    showsResults: mode === 'messages' && isSearchableQuery(query),
  };
};
