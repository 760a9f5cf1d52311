import { z } from 'zod';
import type { NewOutboxTask } from '../../outbox/outbox.js';
import { newWebhookId, WEBHOOK_TYPES, type WebhookEvent } from './webhook-sender.js';

/** Outbox task kinds (ADR 013). */
export const TASK = {
  /** A message may have become due: apply the e-mail rule to its receiver. */
  due: 'notify.due',
  /** Send one notification e-mail. */
  email: 'notify.email',
  /** Post one event to the host's webhook. */
  webhook: 'webhook',
} as const;

/** A handler's time limit: what it needs, but at most half the outbox lease (ADR 013). */
export const handlerTimeoutMs = (wanted: number, leaseMs: number): number =>
  Math.min(wanted, Math.floor(leaseMs / 2));

/** How long one e-mail attempt may take (the mailer keeps SMTP's own limits within it). */
export const emailAttemptTimeoutMs = (leaseMs: number): number => handlerTimeoutMs(60_000, leaseMs);

/** E-mails are retried for at least a day, webhooks for at least an hour. */
export const EMAIL_RETRY_MS = 24 * 3600_000;
export const EMAIL_MIN_ATTEMPTS = 10;
export const WEBHOOK_RETRY_MS = 3600_000;
export const WEBHOOK_MIN_ATTEMPTS = 8;

export const dueTaskSchema = z.object({ receiverId: z.number().int().positive() });
export const emailTaskSchema = z.object({
  receiverId: z.number().int().positive(),
  chatIds: z.array(z.number().int().positive()).min(1),
  /** When the rule took the batch (postponement while online counts from here). */
  decidedAt: z.string().optional(),
  /** How many times it waited for the receiver to leave the page (names the next task). */
  step: z.number().int().min(0).optional(),
});
export const webhookTaskSchema = z.object({
  id: z.string().min(1),
  type: z.enum(WEBHOOK_TYPES),
  timestamp: z.string(),
  data: z.unknown(),
});

export type DueTask = z.infer<typeof dueTaskSchema>;
export type EmailTask = z.infer<typeof emailTaskSchema>;

/** One event for the host's webhook, as an outbox task (its id kept for every attempt). */
export const webhookTask = (dedupeKey: string, event: Omit<WebhookEvent, 'id'>): NewOutboxTask => ({
  kind: TASK.webhook,
  dedupeKey,
  payload: { id: newWebhookId(), ...event },
  runAt: event.timestamp,
});
