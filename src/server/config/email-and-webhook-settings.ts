import { z } from 'zod';
import { setting, positiveInt, positiveNumber } from './setting.js';

export const emailAndWebhookSettings = {
  NOTIFICATIONS: setting(z.enum(['on', 'off']).default('on'), {
    description:
      '`off`: no notification e-mails and no `message.unseen` webhooks (for a host that notifies people itself).',
  }),
  SMTP_URL: setting(z.string().optional(), {
    description: 'Where e-mails are sent: `smtp://user:pass@host:port` or `smtps://…`.',
    unset: 'e-mails are written as `.eml` files in `MAIL_DIR`',
    secret: true,
  }),
  MAIL_FROM: setting(z.string().min(1).default('Messages <no-reply@localhost>'), {
    description:
      'The e-mails’ sender, an address of a domain your SMTP server may send for (`Acme Jobs <messages@jobs.acme.example>`).',
  }),
  MAIL_DIR: setting(z.string().min(1).default('./data/mail'), {
    description: 'Without `SMTP_URL`, e-mails are written here as `.eml` files.',
  }),
  NOTIFY_EMAIL_DELAY_SECONDS: setting(z.coerce.number().min(0).default(300), {
    description: 'How long a message must stay unseen before it is e-mailed.',
  }),
  NOTIFY_EMAIL_MIN_INTERVAL_SECONDS: setting(z.coerce.number().min(0).default(900), {
    description: 'At most one e-mail (and one `message.unseen`) per receiver per this interval.',
  }),
  WEBHOOK_URL: setting(z.string().optional(), {
    description: 'The host’s http(s) address that receives the webhooks (Standard Webhooks).',
    unset: 'no webhooks',
  }),
  WEBHOOK_SECRET: setting(z.string().optional(), {
    description:
      'Required with `WEBHOOK_URL`: `whsec_` and the base64 of at least 24 random bytes (`echo whsec_$(openssl rand -base64 32)`).',
    unset: 'none',
    secret: true,
  }),
  OUTBOX_POLL_MS: setting(positiveInt(1000), {
    description:
      'How often each instance looks for due background work (e-mails, webhooks), in milliseconds.',
  }),
  OUTBOX_LEASE_SECONDS: setting(positiveNumber(300), {
    description: 'How long a claimed task stays one instance’s.',
  }),
  OUTBOX_RETRY_BASE_SECONDS: setting(positiveNumber(30), {
    description: 'The first retry’s delay (it doubles, up to an hour).',
  }),
  OUTBOX_RETENTION_DAYS: setting(positiveNumber(14), {
    description: 'Finished tasks (delivered or given up) are deleted after this long.',
  }),
  OUTBOX_CONCURRENCY: setting(positiveInt(10), {
    description: 'Tasks one instance runs at once.',
  }),
};
