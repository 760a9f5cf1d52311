import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import type { SendMessageResponse } from '../../../../shared/api.js';
import { isApiError } from '../../../lib/api-client.js';
import { hasVisibleText } from '../../../lib/contract.js';
import { useApi } from '../../../lib/api.js';
import { createUuid } from '../../../lib/uuid.js';
import { readDraft, updateDraft } from '../utils/draft-store.js';
import {
  appendChat,
  setThreadConversation,
  threadKeys,
  type ThreadKeyParts,
} from '../utils/thread-cache.js';

interface PendingSend {
  text: string;
  clientId: string;
}

/**
 * Sending with a fresh `client_id` per message, reused when the same text is retried after a
 * failure, so a message whose response got lost still lands once. A failed message is kept with
 * the conversation's draft (across switches and reloads) until it is sent.
 */
export const useSendMessage = (
  parts: ThreadKeyParts,
  viewerId: number,
  onSent: (response: SendMessageResponse) => void,
) => {
  const api = useApi();
  const queryClient = useQueryClient();
  const [sending, setSending] = useState(false);
  const [failedText, setFailedText] = useState<string | null>(
    () => readDraft(viewerId, parts.conversationId).failed?.text ?? null,
  );
  const pending = useRef<PendingSend | null>(
    readDraft(viewerId, parts.conversationId).failed ?? null,
  );
  const inFlight = useRef(false);

  const send = useCallback(
    async (text: string): Promise<boolean> => {
      const message = text.trim();
      if (!hasVisibleText(message) || inFlight.current || parts.receiverId === null) return false;
      const clientId = pending.current?.text === message ? pending.current.clientId : createUuid();
      pending.current = { text: message, clientId };
      inFlight.current = true;
      setSending(true);
      setFailedText(null);
      try {
        const response = await api.sendMessage({
          receiver_id: parts.receiverId,
          messenger_user: parts.conversationId,
          job_id: parts.jobId,
          message,
          client_id: clientId,
        });
        pending.current = null;
        updateDraft(viewerId, parts.conversationId, { failed: null });
        queryClient.setQueryData(
          threadKeys.thread(parts),
          (data: Parameters<typeof appendChat>[0]) =>
            setThreadConversation(appendChat(data, response.message), response.messengerUser),
        );
        onSent(response);
        return true;
      } catch (error) {
        console.error('Message not sent', error);
        // a validation error will fail again: a new attempt gets a new client_id
        if (isApiError(error) && error.status === 422) pending.current = null;
        setFailedText(message);
        updateDraft(viewerId, parts.conversationId, {
          failed: { text: message, clientId: pending.current?.clientId ?? createUuid() },
        });
        return false;
      } finally {
        inFlight.current = false;
        setSending(false);
      }
    },
    [api, queryClient, parts, viewerId, onSent],
  );

  const retry = useCallback(() => {
    const text = pending.current?.text ?? failedText;
    return text ? send(text) : Promise.resolve(false);
  }, [failedText, send]);

  return { send, retry, sending, failed: failedText !== null, failedText };
};
