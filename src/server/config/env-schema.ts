import { z } from 'zod';
import { serverSettings } from './server-settings.js';
import { databaseSettings } from './database-settings.js';
import { liveEventSettings } from './live-event-settings.js';
import { limitSettings } from './limit-settings.js';
import { integrationSettings } from './integration-settings.js';
import { emailAndWebhookSettings } from './email-and-webhook-settings.js';
import { attachmentSettings } from './attachment-settings.js';
import { brandSettings } from './brand-settings.js';
import { operationSettings } from './operation-settings.js';

/** The groups, in the order the reference lists them. */
export const SETTING_GROUPS: readonly { title: string; settings: Record<string, z.ZodType> }[] = [
  { title: 'Server', settings: serverSettings },
  { title: 'Database', settings: databaseSettings },
  { title: 'Live events and Redis', settings: liveEventSettings },
  { title: 'Limits', settings: limitSettings },
  { title: 'Integration and sign-in', settings: integrationSettings },
  { title: 'E-mail, webhooks and background work', settings: emailAndWebhookSettings },
  { title: 'Attachments', settings: attachmentSettings },
  { title: 'Brand', settings: brandSettings },
  { title: 'Operations', settings: operationSettings },
];

export const envSchema = z.object({
  ...serverSettings,
  ...databaseSettings,
  ...liveEventSettings,
  ...limitSettings,
  ...integrationSettings,
  ...emailAndWebhookSettings,
  ...attachmentSettings,
  ...brandSettings,
  ...operationSettings,
});

/** Every variable the server reads. */
export const SETTING_NAMES: readonly string[] = Object.keys(envSchema.shape);

/**
 * Prefixes of the server's own variables: an unknown variable starting with one is a mistake (a
 * misspelling, an old name) and is warned about. Only prefixes no other program uses.
 */
export const OWN_PREFIXES = [
  'SEND_RATE_',
  'HOST_SEND_',
  'WS_',
  'OUTBOX_',
  'PUSHER_',
  'SMTP_',
  'SSO_',
  'INTEGRATION_',
  'BRAND_',
  'NOTIFY_',
  'NOTIFICATIONS',
  'WEBHOOK_',
  'MAIL_',
  'LOGIN_',
  'TOKEN_',
  'TOKENS_',
  'REALTIME_',
  'DEMO_',
  'PRESENCE_',
  'ATTACHMENT_',
  'UPLOAD_',
  'STORAGE_',
  'METRICS_',
  'SHUTDOWN_',
  'EDIT_WINDOW',
  'IMAGE_ORIGIN',
  'EMBED_',
  'SITE_NAME',
] as const;
