import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { Chat } from '../../../../shared/models.js';
import { PAGE_LIMIT_MAX } from '../../../../shared/paths.js';
import { useApiClient } from '../../../lib/api-provider.js';
import { getMessages } from '../api/get-messages.js';
import {
  oldestChatId,
  threadKeys,
  type ThreadData,
  type ThreadKeyParts,
} from '../utils/thread-cache.js';

/** A message to bring into view in the open conversation (a search result opened); `request` is new each time. */
export interface MessageFocusRequest {
  messageId: number;
  request: number;
}

/** How long a message brought into view stays highlighted. */
export const MESSAGE_HIGHLIGHT_MS = 4000;

/**
 * Brings a message of the open conversation into the loaded history: older pages (the most the
 * server gives at once) are loaded, one after another, until the message is among them or the
 * history's beginning is reached. The message is then the list's focus target (scrolled into view
 * and focused once per request) and highlighted for `MESSAGE_HIGHLIGHT_MS`.
 */
export const useMessageFocus = (
  parts: ThreadKeyParts,
  data: ThreadData | undefined,
  chats: readonly Chat[],
  target: MessageFocusRequest | null,
) => {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const loaded = target !== null && chats.some((chat) => chat.id === target.messageId);
  /** The request whose page is being fetched (one at a time). */
  const fetching = useRef<number | null>(null);
  /** The last request given up (the message is not in this history, or a page failed). */
  const [givenUp, setGivenUp] = useState(0);
  const [highlightEnded, setHighlightEnded] = useState(0);
  const request = target?.request ?? 0;
  const lastPage = data?.pages[data.pages.length - 1];

  useEffect(() => {
    if (!target || loaded || !lastPage || fetching.current === request || givenUp === request)
      return;
    const before = lastPage.has_more ? oldestChatId(lastPage) : undefined;
    if (before === undefined || parts.receiverId === null) {
      setGivenUp(request);
      return;
    }
    fetching.current = request;
    const key = threadKeys.thread(parts);
    getMessages(client, {
      receiver_id: parts.receiverId,
      job_id: parts.jobId,
      before,
      limit: PAGE_LIMIT_MAX,
    }).then(
      (page) => {
        queryClient.setQueryData<ThreadData>(key, (current) =>
          current
            ? { pages: [...current.pages, page], pageParams: [...current.pageParams, before] }
            : current,
        );
        if (fetching.current === request) fetching.current = null;
      },
      () => {
        if (fetching.current === request) fetching.current = null;
        setGivenUp(request);
      },
    );
  }, [target, request, loaded, lastPage, givenUp, parts, client, queryClient]);

  useEffect(() => {
    if (!loaded) return;
    const timer = setTimeout(() => setHighlightEnded(request), MESSAGE_HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [loaded, request]);

  return {
    /** The message to scroll to and focus (once per request), when it is loaded. */
    focusTarget: loaded ? target : null,
    /** The message shown highlighted now. */
    highlightedId: loaded && highlightEnded !== request ? target.messageId : null,
    /** Older pages are being loaded to reach the message. */
    seeking: target !== null && !loaded && givenUp !== request,
  };
};
