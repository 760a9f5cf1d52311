import { useCallback, useRef } from 'react';
import type { ApiClient } from '../../../lib/api-client.js';
import { useApiClient } from '../../../lib/api-provider.js';
import { apiPaths } from '../../../lib/contract.js';

/** `POST /user/messenger/{id}/typing`: the other party hears that the viewer is typing (204). */
export const sendTyping = (client: ApiClient, messengerUserId: number): Promise<void> =>
  client.post<void>(apiPaths.typing(messengerUserId));

/** How often the page tells the other party that the viewer is typing, at most. */
const TYPING_EVERY_MS = 2_000;

/**
 * `onTyping` for the composer: the other party hears it at most once every 2 s (the server
 * coalesces the rest anyway); a failure is not worth a word.
 */
export const useSendTyping = (conversationId: number) => {
  const client = useApiClient();
  const lastTyping = useRef(0);
  return useCallback(() => {
    const now = Date.now();
    if (now - lastTyping.current < TYPING_EVERY_MS) return;
    lastTyping.current = now;
    sendTyping(client, conversationId).catch(() => undefined);
  }, [client, conversationId]);
};
