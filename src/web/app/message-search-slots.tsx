import { useCallback, useEffect, useMemo, useState } from 'react';
import type { AuthUser, MessengerUser } from '../../shared/models.js';
import type { SearchResult } from '../../shared/message-search.js';
import type { MessageFocusRequest } from '../features/chat/hooks/use-message-focus.js';
import type { MessageSearchControls } from '../features/conversations/components/conversation-panel.js';
import { MessageSearchResults } from '../features/message-search/components/message-search-results.js';
import {
  useMessageSearch,
  type SearchMode,
} from '../features/message-search/hooks/use-message-search.js';

/** The message a search result opened, and in which conversation. */
interface FocusedMessage extends MessageFocusRequest {
  conversationId: number;
}

/**
 * Searching messages, wired into the page: the conversation panel's switch and results, and the
 * message a result opens. A result opens its conversation as a row does (`selectFromSearch`), and
 * the chat shows that message (older history loaded until it is there), highlighted.
 */
export const useMessageSearchSlots = ({
  auth,
  conversationSearch,
  onConversationSearchChange,
  openId,
  selectFromSearch,
}: {
  auth: AuthUser | undefined;
  /** The box's text in conversations mode: switching modes carries the text across. */
  conversationSearch: string;
  onConversationSearchChange: (value: string) => void;
  /** The open conversation's id. */
  openId: number | undefined;
  selectFromSearch: (item: MessengerUser) => void;
}): {
  panel: MessageSearchControls | undefined;
  /** For the chat pane: the message to show in the open conversation. */
  focusMessage: MessageFocusRequest | null;
} => {
  const search = useMessageSearch();
  const [focused, setFocused] = useState<FocusedMessage | null>(null);
  const { mode, setMode, query, setQuery, settledQuery, showsResults } = search;

  const onOpen = useCallback(
    (result: SearchResult) => {
      selectFromSearch(result.messenger_user);
      setFocused((previous) => ({
        conversationId: result.messenger_user.id,
        messageId: result.message.id,
        request: (previous?.request ?? 0) + 1,
      }));
    },
    [selectFromSearch],
  );

  // the text typed stays in the box when the switch changes what it searches
  const onModeChange = useCallback(
    (next: SearchMode) => {
      if (next === mode) return;
      if (next === 'messages') {
        setQuery(conversationSearch);
        onConversationSearchChange('');
      } else {
        onConversationSearchChange(query);
        setQuery('');
      }
      setMode(next);
    },
    [mode, query, conversationSearch, onConversationSearchChange, setMode, setQuery],
  );

  // another conversation opened (from the list, Back): the message found is forgotten, so coming
  // back to its conversation later opens it at the newest message as usual
  useEffect(() => {
    if (focused && focused.conversationId !== openId) setFocused(null);
  }, [focused, openId]);

  const openMessageId = focused && focused.conversationId === openId ? focused.messageId : null;
  const focusMessage = useMemo(
    () =>
      focused && focused.conversationId === openId
        ? { messageId: focused.messageId, request: focused.request }
        : null,
    [focused, openId],
  );

  const panel = auth
    ? {
        mode,
        onModeChange,
        query,
        onQueryChange: setQuery,
        results: showsResults ? (
          <MessageSearchResults
            query={query}
            settledQuery={settledQuery}
            viewerRole={auth.role}
            openMessageId={openMessageId}
            onOpen={onOpen}
          />
        ) : null,
      }
    : undefined;
  return { panel, focusMessage };
};
