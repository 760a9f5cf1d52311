import { useCallback, useRef, useState } from 'react';
import type { UploadedAttachment } from '../../../../shared/attachment-uploads.js';
import type { Chat } from '../../../../shared/models.js';
import { isApiError } from '../../../lib/api-client.js';
import { hasVisibleText } from '../../../lib/contract.js';
import { createUuid } from '../../../lib/uuid.js';
import { useSendMessageMutation } from '../api/send-message.js';
import { readDraft, updateDraft } from '../utils/draft-store.js';
import type { ThreadKeyParts } from '../utils/thread-cache.js';

const NO_FILES: readonly UploadedAttachment[] = [];

/** A message written by the viewer and not confirmed by the server yet. */
export interface OutgoingMessage {
  text: string;
  clientId: string;
  /** Files uploaded already, sent by id (`attachment_ids`); shown by name while pending. */
  attachments?: readonly UploadedAttachment[];
}

const sameFiles = (
  a: readonly UploadedAttachment[] | undefined,
  b: readonly UploadedAttachment[] | undefined,
) => (a ?? []).map((file) => file.id).join() === (b ?? []).map((file) => file.id).join();

interface QueuedMessage extends OutgoingMessage {
  /** Resolves with whether it was sent (false: it failed and became the "Not sent" message). */
  settle: (sent: boolean) => void;
}

/**
 * Sending with a fresh `client_id` per message, reused when the same text is retried after a
 * failure, so a message whose response got lost still lands once. Messages go out one at a time,
 * in the order they were written: each shows at once as a pending bubble (`outgoing`) and is
 * replaced by the stored message when the server answers (the answer goes where the live event
 * would: `useSendMessageMutation`), or when its live event comes first (same `client_id`). A failed message is kept with the conversation's draft (across switches and
 * reloads) until it is sent; messages written after it wait behind it so the order holds.
 * The queue lives on when the conversation is left: what was written still goes out.
 */
export const useSendMessage = (parts: ThreadKeyParts, viewerId: number) => {
  const { mutateAsync: sendMessage } = useSendMessageMutation();
  const [failed, setFailed] = useState<OutgoingMessage | null>(
    () => readDraft(viewerId, parts.conversationId).failed,
  );
  const failedRef = useRef(failed);
  /** Why the server refused the failed message (403: blocked by the other party, or suspended). */
  const [refusal, setRefusal] = useState<string | null>(null);
  const queue = useRef<QueuedMessage[]>([]);
  const [outgoing, setOutgoing] = useState<readonly OutgoingMessage[]>([]);
  const running = useRef(false);

  const setFailedMessage = useCallback(
    (message: OutgoingMessage | null) => {
      failedRef.current = message;
      setFailed(message);
      updateDraft(viewerId, parts.conversationId, { failed: message });
    },
    [viewerId, parts.conversationId],
  );

  const publishQueue = useCallback(
    () =>
      setOutgoing(
        queue.current.map(({ text, clientId, attachments }) => ({ text, clientId, attachments })),
      ),
    [],
  );

  const deliver = useCallback(
    async (item: QueuedMessage): Promise<boolean> => {
      if (parts.receiverId === null) return false;
      try {
        await sendMessage({
          receiver_id: parts.receiverId,
          messenger_user: parts.conversationId,
          job_id: parts.jobId,
          message: item.text,
          client_id: item.clientId,
          // only when there are files: a text message's body has no `attachment_ids`
          ...(item.attachments?.length
            ? { attachment_ids: item.attachments.map((file) => file.id) }
            : {}),
        });
        return true;
      } catch (error) {
        console.error('Message not sent', error);
        setRefusal(isApiError(error) && error.status === 403 ? error.message : null);
        const refused = isApiError(error) && error.status === 422;
        // a validation error will fail again: a new attempt gets a new client_id
        const clientId = refused ? createUuid() : item.clientId;
        // Files the server will not attach (sent in another message meanwhile, or expired) would
        // fail every retry: the message goes on without them, or is dropped when nothing is left.
        const filesRefused = refused && error.errors?.attachment_ids !== undefined;
        if (filesRefused && item.text === '') setFailedMessage(null);
        else
          setFailedMessage({
            text: item.text,
            clientId,
            ...(filesRefused ? {} : { attachments: item.attachments }),
          });
        return false;
      }
    },
    [sendMessage, parts, setFailedMessage],
  );

  /** Sends the queue's messages one after the other; stops at a failure (the rest waits behind it). */
  const pump = useCallback(async () => {
    if (running.current) return;
    running.current = true;
    try {
      for (let item = queue.current[0]; item; item = queue.current[0]) {
        const sent = await deliver(item);
        queue.current = queue.current.filter((queued) => queued !== item);
        publishQueue();
        item.settle(sent);
        if (!sent) break;
      }
    } finally {
      running.current = false;
    }
  }, [deliver, publishQueue]);

  const enqueue = useCallback(
    (message: OutgoingMessage, first = false): Promise<boolean> =>
      new Promise<boolean>((settle) => {
        const item = { ...message, settle };
        setRefusal(null);
        queue.current = first ? [item, ...queue.current] : [...queue.current, item];
        publishQueue();
        void pump();
      }),
    [publishQueue, pump],
  );

  const send = useCallback(
    (text: string, attachments: readonly UploadedAttachment[] = []): Promise<boolean> => {
      // with files the text may be empty (then it is sent as ''; the server's rule)
      const message = hasVisibleText(text) ? text.trim() : '';
      if ((message === '' && attachments.length === 0) || parts.receiverId === null)
        return Promise.resolve(false);
      const failedMessage = failedRef.current;
      if (failedMessage?.text === message && sameFiles(failedMessage.attachments, attachments)) {
        // the failed message written again: the same message, so the same client_id
        setFailedMessage(null);
        return enqueue(failedMessage, true);
      }
      return enqueue({
        text: message,
        clientId: createUuid(),
        ...(attachments.length > 0 ? { attachments } : {}),
      });
    },
    [parts.receiverId, enqueue, setFailedMessage],
  );

  const stillFailedFile = useCallback(
    (id: number) => failedRef.current?.attachments?.some((file) => file.id === id) ?? false,
    [],
  );

  const retry = useCallback((): Promise<boolean> => {
    const failedMessage = failedRef.current;
    if (!failedMessage) return Promise.resolve(false);
    setFailedMessage(null);
    return enqueue(failedMessage, true);
  }, [enqueue, setFailedMessage]);

  return {
    send,
    retry,
    sending: outgoing.length > 0,
    outgoing,
    failed: failed !== null,
    /** The server's reason for refusing the failed message (403), said beside "Not sent". */
    refusal: failed === null ? null : refusal,
    failedText: failed?.text ?? null,
    /** The files of the failed message: Retry sends them again. */
    failedAttachments: failed?.attachments ?? NO_FILES,
    /** Whether the failed message (as it is now, after an answer) still carries this file. */
    stillFailedFile: stillFailedFile,
  };
};

/** Pending messages whose stored message is already in the thread (its live event came first) are not shown twice. */
export const unconfirmed = (
  outgoing: readonly OutgoingMessage[],
  chats: readonly Chat[],
): readonly OutgoingMessage[] => {
  if (outgoing.length === 0) return outgoing;
  const stored = new Set(chats.map((chat) => chat.client_id).filter((id) => id !== null));
  return outgoing.filter((message) => !stored.has(message.clientId));
};

/** A conversation's sends: Send and Retry, what is on its way and how the last one went. */
export type Outbox = ReturnType<typeof useSendMessage>;
