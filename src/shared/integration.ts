import { z } from 'zod';
import { sendMessageBodySchema, visibleMessageTextSchema } from './api.js';
import { hostConversationSchema, roleSchema } from './models.js';
import { pathTemplate } from './paths.js';
import { suspendedSchema } from './safety.js';
import { containsControlOrBidi, containsNul, hasVisibleText, isTimeZoneName } from './text.js';

/** The host job board's own id: 1–128 characters of `A–Z a–z 0–9 . _ : @ -`. */
export const EXTERNAL_ID_PATTERN = /^[A-Za-z0-9._:@-]{1,128}$/;
export const externalIdSchema = z
  .string({ error: 'must be an external id (1–128 characters of A–Z a–z 0–9 . _ : @ -).' })
  .regex(
    EXTERNAL_ID_PATTERN,
    'must be an external id (1–128 characters of A–Z a–z 0–9 . _ : @ -).',
  );

/** The integration API's paths (`integrationPaths.user('u-1')`; the server registers each `pattern`). */
export const integrationPaths = {
  user: pathTemplate('/api/v1/users/:externalId'),
  job: pathTemplate('/api/v1/jobs/:externalId'),
  application: pathTemplate('/api/v1/jobs/:jobExternalId/applications/:candidateExternalId'),
  conversations: '/api/v1/conversations',
  openapi: '/api/v1/openapi.json',
} as const;

const plainText = (max: number) =>
  z
    .string()
    .trim()
    .min(1, 'is required.')
    .max(max, `may not be greater than ${max} characters.`)
    .refine((value) => !containsNul(value), 'may not contain a NUL character.');

/** At most this many characters in a person's or a company's name. */
export const NAME_MAX_LENGTH = 200;

/**
 * A user's name, wherever the host sets it (the integration API's user upsert and the claims of a
 * sign-in link): the message rule (something visible, no NUL), and no control character, line
 * break or bidirectional override anywhere in what is sent, so that a name cannot break or reorder
 * the lines it is shown in. Surrounding spaces are trimmed.
 */
export const personNameSchema = z
  .string()
  .refine((value) => !containsNul(value), {
    message: 'may not contain a NUL character.',
    abort: true,
  })
  .refine((value) => !containsControlOrBidi(value), {
    message: 'may not contain control characters, line breaks or bidirectional overrides.',
    abort: true,
  })
  .trim()
  .min(1, { message: 'is required.', abort: true })
  .max(NAME_MAX_LENGTH, `may not be greater than ${NAME_MAX_LENGTH} characters.`)
  .refine(hasVisibleText, 'must contain something visible.');

export const localeSchema = z.enum(['en', 'ar']);
export type Locale = z.infer<typeof localeSchema>;

export const timeZoneSchema = z
  .string()
  .refine(isTimeZoneName, 'must be an IANA time zone name (e.g. Asia/Riyadh).');

/** A user's switches (notifications, read receipts, being seen online), language and time zone. */
export const userSettingsSchema = z.object({
  email_notifications: z.boolean(),
  read_receipts: z.boolean(),
  show_online: z.boolean(),
  browser_notifications: z.boolean(),
  /** The language of the page and of notification e-mails. */
  locale: localeSchema,
  /** The user's time zone (IANA); notification e-mails give times in it. */
  time_zone: z.string(),
});
export type UserSettings = z.infer<typeof userSettingsSchema>;
export const DEFAULT_USER_SETTINGS: UserSettings = {
  email_notifications: true,
  read_receipts: true,
  show_online: true,
  browser_notifications: false,
  locale: 'en',
  time_zone: 'UTC',
};
/** Any subset; unknown keys and wrong types are refused. */
export const userSettingsPatchSchema = userSettingsSchema
  .extend({ time_zone: timeZoneSchema })
  .partial()
  .strict();
export type UserSettingsPatch = z.infer<typeof userSettingsPatchSchema>;
export const userSettingsResponseSchema = z.object({ settings: userSettingsSchema });
export type UserSettingsResponse = z.infer<typeof userSettingsResponseSchema>;

/** `GET /sso?token=<JWT>&next=<same-origin path>`: a sign-in link made by the host site. */
export const ssoQuerySchema = z.object({ token: z.string(), next: z.string().optional() });

/** The signed token of an unsubscribe link (notification e-mails, RFC 8058). */
export const unsubscribeQuerySchema = z.object({ token: z.string() });

export const userParamsSchema = z.object({ externalId: externalIdSchema });
export const jobParamsSchema = z.object({ externalId: externalIdSchema });
export const applicationParamsSchema = z.object({
  jobExternalId: externalIdSchema,
  candidateExternalId: externalIdSchema,
});

export const upsertUserBodySchema = z
  .object({
    role: roleSchema,
    name: personNameSchema,
    /** Stored in lower case: addresses are unique without regard to case. */
    email: z.email('must be an e-mail address.').max(254).toLowerCase().nullable().optional(),
    image_url: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL.' })
      .max(2048)
      .nullable()
      .optional(),
    locale: localeSchema.nullable().optional(),
    // the host sets the language with `locale` above; the user's own pick (the page) wins over it
    settings: userSettingsPatchSchema.omit({ locale: true }).optional(),
    /** True: the user signs in and reads, but cannot send, type or upload; false lifts it. */
    suspended: suspendedSchema.optional(),
  })
  .strict();
export type UpsertUserBody = z.infer<typeof upsertUserBodySchema>;

export const integrationUserSchema = z.object({
  id: z.number().int(),
  external_id: z.string(),
  role: roleSchema,
  name: z.string(),
  email: z.string().nullable(),
  image_url: z.string().nullable(),
  locale: localeSchema.nullable(),
  /** Suspended by the host (`PUT` with `suspended: true`). */
  suspended: z.boolean(),
});
export type IntegrationUser = z.infer<typeof integrationUserSchema>;
export const integrationUserResponseSchema = z.object({ user: integrationUserSchema });

export const upsertJobBodySchema = z
  .object({
    company: externalIdSchema,
    title: plainText(300),
    status: z.enum(['active', 'inactive']),
    deadline: z.iso
      .date('must be a date (YYYY-MM-DD) or null.')
      .nullable()
      .optional()
      .describe('The last day to apply (YYYY-MM-DD); null or left out: none.'),
  })
  .strict();
export type UpsertJobBody = z.infer<typeof upsertJobBodySchema>;

export const integrationJobSchema = z.object({
  id: z.number().int(),
  external_id: z.string(),
  title: z.string(),
  status: z.string(),
  deadline: z.string().nullable(),
  company_id: z.number().int(),
});
export const integrationJobResponseSchema = z.object({ job: integrationJobSchema });

export const setApplicationBodySchema = z.object({ group: plainText(100).nullable() }).strict();
export const applicationResponseSchema = z.object({
  application: z.object({
    job_id: z.number().int(),
    candidate_id: z.number().int(),
    group: z.string().nullable(),
  }),
});

export const startConversationBodySchema = z
  .object({
    company: externalIdSchema,
    candidate: externalIdSchema,
    job: externalIdSchema.nullable().optional(),
    message: z
      .object({
        from: z.enum(['company', 'candidate']),
        text: visibleMessageTextSchema,
        client_id: sendMessageBodySchema.shape.client_id,
      })
      .strict()
      .optional(),
  })
  .strict();
export type StartConversationBody = z.infer<typeof startConversationBodySchema>;

export const startConversationResponseSchema = z.object({
  conversation: hostConversationSchema,
  company_url: z.string(),
  candidate_url: z.string(),
});
export type StartConversationResponse = z.infer<typeof startConversationResponseSchema>;
