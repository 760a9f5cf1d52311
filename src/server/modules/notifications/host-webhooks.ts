import type { ReportCreatedWebhookData } from '../../../shared/safety.js';
import type { Executor } from '../../db/database.js';
import type { NewOutboxTask, Outbox } from '../../outbox/outbox.js';
import type { OutboxWorker } from '../../outbox/outbox-worker.js';
import {
  chatHostIdsOf,
  presentHostChat,
  type AttachmentRow,
  type ConversationHostIds,
} from '../../read-model/chat.presenter.js';
import type { ChatRowWithSender } from '../../read-model/chat.repository.js';
import {
  handlerTimeoutMs,
  TASK,
  WEBHOOK_MIN_ATTEMPTS,
  WEBHOOK_RETRY_MS,
  webhookTask,
  webhookTaskSchema,
} from './notification-tasks.js';
import { WEBHOOK_TIMEOUT_MS, type WebhookEvent, type WebhookSender } from './webhook-sender.js';

export interface HostWebhooksOptions {
  outbox: Outbox;
  /** Undefined: no webhooks (WEBHOOK_URL unset). */
  webhook: WebhookSender | undefined;
  /** The outbox lease: handlers must finish well within it. */
  leaseMs: number;
}

/**
 * What the host's webhook hears of, beside a new message (built by the send's `outboxTasksFor`)
 * and a batch left unseen (the e-mail rule's): edits, deletes and reports; and the handler that
 * posts each event.
 */
export const createHostWebhooks = ({ outbox, webhook, leaseMs }: HostWebhooksOptions) => {
  const enqueueWebhook = (
    executor: Executor,
    dedupeKey: string,
    event: Omit<WebhookEvent, 'id'>,
  ) => (webhook ? outbox.enqueue(executor, webhookTask(dedupeKey, event)) : Promise.resolve(false));

  return {
    enqueueWebhook,

    /**
     * The durable work of an edit or a delete, written in its own commit: the host hears of it
     * (`message.updated` / `message.deleted`, `data` as for `message.created`: the message as it is
     * now). Each edit is its own event (keyed by when it was made). E-mails need nothing here: an
     * e-mail reads its messages when it goes out (the latest text; deleted ones left out).
     */
    outboxTasksForChange: (
      type: 'message.updated' | 'message.deleted',
      chat: ChatRowWithSender,
      attachments: readonly AttachmentRow[],
      conversation: ConversationHostIds,
    ): NewOutboxTask[] => {
      if (!webhook) return [];
      const at = (type === 'message.deleted' ? chat.deleted_at : chat.edited_at) ?? chat.created_at;
      return [
        webhookTask(`webhook:${type}:${chat.id}:${at}`, {
          type,
          timestamp: at,
          data: {
            message: presentHostChat(chat, attachments, chatHostIdsOf(chat, conversation)),
            conversation_id: chat.messenger_user_id,
          },
        }),
      ];
    },

    /**
     * The host hears of a new report (`report.created`): enqueued in the report's own transaction,
     * so the webhook exists exactly when the report does. Nothing without a webhook.
     */
    reportCreated: (executor: Executor, data: ReportCreatedWebhookData, at: string) =>
      enqueueWebhook(executor, `webhook:report.created:${data.report.id}`, {
        type: 'report.created',
        timestamp: at,
        data,
      }),

    /** Gives the outbox worker the webhook handler (none without WEBHOOK_URL). */
    registerHandler: (worker: OutboxWorker): void => {
      // Without WEBHOOK_URL, webhook tasks left from an earlier configuration wait for it.
      if (!webhook) return;
      worker.register<WebhookEvent>(
        TASK.webhook,
        (event, { signal }) => webhook.deliver(event, signal),
        {
          parse: (payload) => webhookTaskSchema.parse(payload),
          maxAttempts: WEBHOOK_MIN_ATTEMPTS,
          minRetryMs: WEBHOOK_RETRY_MS,
          timeoutMs: handlerTimeoutMs(WEBHOOK_TIMEOUT_MS + 5_000, leaseMs),
          // A receiver that does not answer holds at most half the slots: e-mails keep going.
          concurrency: Math.max(1, Math.floor(worker.concurrency / 2)),
        },
      );
    },
  };
};

export type HostWebhooks = ReturnType<typeof createHostWebhooks>;
