import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** The events the host hears of (docs/integration.md). */
export const WEBHOOK_TYPES = [
  'message.created',
  'message.updated',
  'message.deleted',
  'message.unseen',
  'report.created',
] as const;
export type WebhookType = (typeof WEBHOOK_TYPES)[number];

/** What is posted: the Standard Webhooks envelope. `id` is the `webhook-id`, the same on retries. */
export interface WebhookEvent {
  id: string;
  type: WebhookType;
  /** When the event happened (ISO UTC), not when this attempt was made. */
  timestamp: string;
  data: unknown;
}

/** A receiver that has not answered within this long counts as failed. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** A new event id (`msg_…`), kept with the event so that every attempt carries the same one. */
export const newWebhookId = (): string => `msg_${randomUUID().replaceAll('-', '')}`;

export interface WebhookSender {
  deliver: (event: WebhookEvent, signal: AbortSignal) => Promise<void>;
}

/**
 * Posts events to the host's `WEBHOOK_URL` the Standard Webhooks way: JSON `{type, timestamp,
 * data}`, with `webhook-id`, `webhook-timestamp` (this attempt, seconds) and `webhook-signature`
 * (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body`, keyed with the decoded `whsec_` secret).
 * Anything but a 2xx answer within 10 s is a failure (the outbox retries it).
 */
export const createWebhookSender = (options: { url: URL; secret: string }): WebhookSender => {
  const signer = new Webhook(options.secret);
  return {
    deliver: async (event, signal) => {
      const body = JSON.stringify({
        type: event.type,
        timestamp: event.timestamp,
        data: event.data,
      });
      const attemptAt = new Date();
      const response = await fetch(options.url, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'jobboard-messenger-webhooks',
          'webhook-id': event.id,
          'webhook-timestamp': String(Math.floor(attemptAt.getTime() / 1000)),
          'webhook-signature': signer.sign(event.id, attemptAt, body),
        },
        body,
        signal: AbortSignal.any([signal, AbortSignal.timeout(WEBHOOK_TIMEOUT_MS)]),
      });
      // Drain the answer (a keep-alive connection is only reused once its body was read).
      await response.arrayBuffer().catch(() => undefined);
      if (response.status < 200 || response.status >= 300)
        throw new Error(`webhook: ${options.url.origin} answered ${response.status}`);
    },
  };
};
