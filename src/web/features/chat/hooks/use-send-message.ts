import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import type { SendMessageResponse } from '../../../../shared/api.js';
import { isApiError } from '../../../lib/api-client.js';
import { useServices } from '../../../lib/services.js';
import { createUuid } from '../../../lib/uuid.js';
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
 * failure, so a message whose response got lost still lands once.
 */
export const useSendMessage = (
  parts: ThreadKeyParts,
  onSent: (response: SendMessageResponse) => void,
) => {
  const { api } = useServices();
  const queryClient = useQueryClient();
  const [sending, setSending] = useState(false);
  const [failedText, setFailedText] = useState<string | null>(null);
  const pending = useRef<PendingSend | null>(null);
  const inFlight = useRef(false);

  const send = useCallback(
    async (text: string): Promise<boolean> => {
      const message = text.trim();
      if (!message || inFlight.current || parts.receiverId === null) return false;
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
        return false;
      } finally {
        inFlight.current = false;
        setSending(false);
      }
    },
    [api, queryClient, parts, onSent],
  );

  const retry = useCallback(() => {
    const text = pending.current?.text ?? failedText;
    return text ? send(text) : Promise.resolve(false);
  }, [failedText, send]);

  return { send, retry, sending, failed: failedText !== null, failedText };
};
