import { z } from 'zod';
import { sendMessageBodySchema, visibleMessageTextSchema } from './messages.js';
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
  /** The user's unread total, for the host's own header. */
  userUnread: pathTemplate('/api/v1/users/:externalId/unread'),
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
  email_notifications: z.boolean().describe('E-mail the user about messages left unread.'),
  read_receipts: z
    .boolean()
    .describe(
      'Tell senders when the user has seen their messages; off, the user does not see others’ receipts either.',
    ),
  show_online: z
    .boolean()
    .describe(
      'Let conversation partners see when the user is online and when they were last seen; off, the user does not see others’ either.',
    ),
  browser_notifications: z
    .boolean()
    .describe(
      'Show the browser’s own notifications for new messages while the page is open in the background.',
    ),
  /** The language of the page and of notification e-mails. */
  locale: localeSchema.describe(
    'The language of the page and of notification e-mails: `en` or `ar`.',
  ),
  /** The user's time zone (IANA); notification e-mails give times in it. */
  time_zone: z
    .string()
    .describe(
      'The user’s time zone (an IANA name such as `Asia/Riyadh`); notification e-mails give times in it.',
    ),
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
  .extend({
    time_zone: timeZoneSchema.describe(
      'The user’s time zone: an IANA name such as `Asia/Riyadh` (anything else is a 422); notification e-mails give times in it.',
    ),
  })
  .partial()
  .strict();
export type UserSettingsPatch = z.infer<typeof userSettingsPatchSchema>;
export const userSettingsResponseSchema = z.object({
  settings: userSettingsSchema.describe('The signed-in user’s switches, language and time zone.'),
});
export type UserSettingsResponse = z.infer<typeof userSettingsResponseSchema>;

/** `GET /sso?token=<JWT>&next=<same-origin path>`: a sign-in link made by the host site. */
export const ssoQuerySchema = z.object({
  token: z
    .string()
    .describe(
      'The sign-in link’s JWT, signed by the host with SSO_SECRET (HS256); it lives at most 10 minutes and works once.',
    ),
  next: z
    .string()
    .optional()
    .describe(
      'Where to land after signing in: a path on this server (e.g. `/messages?target=12&tab=34`); a `next` claim in the token wins over it, and anything that is not a same-origin path lands on `/messages`. Not signed: put it in the token when it matters.',
    ),
});

/** The signed token of an unsubscribe link (notification e-mails, RFC 8058). */
export const unsubscribeQuerySchema = z.object({
  token: z
    .string()
    .describe(
      'The signed token of the unsubscribe link in a notification e-mail (it names the user and expires after a while: the page then says so).',
    ),
});

export const userParamsSchema = z.object({
  externalId: externalIdSchema
    .meta({ examples: ['candidate:7'] })
    .describe(
      'The user’s id on the host site (1–128 characters of A–Z a–z 0–9 . _ : @ -), e.g. `candidate:7`.',
    ),
});
/** `GET /api/v1/users/{externalId}/unread`. */
export const userUnreadResponseSchema = z.object({
  unread_total: z
    .number()
    .int()
    .min(0)
    .describe(
      'The user’s unread messages over all their conversations (archived ones too): the total their messaging page shows.',
    ),
});
export type UserUnreadResponse = z.infer<typeof userUnreadResponseSchema>;
export const jobParamsSchema = z.object({
  externalId: externalIdSchema
    .meta({ examples: ['job:991'] })
    .describe(
      'The job’s id on the host site (1–128 characters of A–Z a–z 0–9 . _ : @ -), e.g. `job:991`.',
    ),
});
export const applicationParamsSchema = z.object({
  jobExternalId: externalIdSchema
    .meta({ examples: ['job:991'] })
    .describe('The job’s id on the host site (a job made with `PUT /api/v1/jobs/{externalId}`).'),
  candidateExternalId: externalIdSchema
    .meta({ examples: ['candidate:7'] })
    .describe(
      'The candidate’s id on the host site (a user made with `PUT /api/v1/users/{externalId}`, role `candidate`).',
    ),
});

export const upsertUserBodySchema = z
  .object({
    role: roleSchema.describe(
      '`candidate`, `company` or `owner` (an owner acts as a company). Changing the role of a user who has conversations is a 409.',
    ),
    name: personNameSchema.describe(
      'The name shown to conversation partners (1–200 characters, trimmed; no control characters, line breaks or bidirectional overrides).',
    ),
    /** Stored in lower case: addresses are unique without regard to case. */
    email: z
      .email('must be an e-mail address.')
      .max(254)
      .toLowerCase()
      .nullable()
      .optional()
      .describe(
        'Where notification e-mails go (stored in lower case; unique among users: 422 when another user has it); null or absent: no e-mails.',
      ),
    image_url: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL.' })
      .max(2048)
      .nullable()
      .optional()
      .describe(
        'An http(s) URL of the user’s picture: the photo of a candidate, the logo of a company (at most 2048 characters); null: none. Browsers load it from its address, which IMAGE_ORIGINS must allow (any https address by default).',
      ),
    locale: localeSchema
      .nullable()
      .optional()
      .describe(
        'The user’s one language (`en` or `ar`), for the page and e-mails: the same value as their settings’ `locale` (the page’s language switch writes it too), the last write wins. Absent: left as it is; null: none (the page then follows the browser).',
      ),
    // the language is the top-level `locale` above, not `settings.locale`
    settings: userSettingsPatchSchema
      .omit({ locale: true })
      .optional()
      .describe(
        'Any of the user’s switches and their time zone; a switch left out is left as it is. The language is `locale` above (`settings.locale` is a 422).',
      ),
    /** True: the user signs in and reads, but cannot send, type or upload; false lifts it. */
    suspended: suspendedSchema
      .optional()
      .describe(
        'True: the user signs in and reads, but cannot send, type or upload (403); false lifts it; absent: unchanged.',
      ),
  })
  .strict();
export type UpsertUserBody = z.infer<typeof upsertUserBodySchema>;

export const integrationUserSchema = z.object({
  id: z
    .number()
    .int()
    .describe(
      'The user’s id in the messenger (the `sender_id`, `receiver_id`, `candidate_id` or `company_id` of messages and conversations).',
    ),
  external_id: z.string().describe('The user’s id on the host site, as in the path.'),
  role: roleSchema.describe('`candidate`, `company` or `owner`.'),
  name: z.string().describe('The user’s name.'),
  email: z.string().nullable().describe('The user’s e-mail address (lower case); null: none.'),
  image_url: z.string().nullable().describe('The user’s photo or logo; null: none.'),
  locale: localeSchema
    .nullable()
    .describe(
      'The user’s language (`en` or `ar`); null: never set (the page then follows the browser).',
    ),
  /** Suspended by the host (`PUT` with `suspended: true`). */
  suspended: z
    .boolean()
    .describe('True when suspended by the host (`PUT` with `suspended: true`).'),
});
export type IntegrationUser = z.infer<typeof integrationUserSchema>;
export const integrationUserResponseSchema = z.object({
  user: integrationUserSchema.describe('The user as stored.'),
});

export const upsertJobBodySchema = z
  .object({
    company: externalIdSchema
      .meta({ examples: ['company:42'] })
      .describe(
        'The external id of the company (a user with role `company` or `owner`) that posts the job; an unknown one is a 422.',
      ),
    title: plainText(300).describe('The job’s title (1–300 characters, trimmed).'),
    status: z
      .enum(['active', 'inactive'])
      .describe('`active` or `inactive` (conversations about an inactive job stay readable).'),
    deadline: z.iso
      .date('must be a date (YYYY-MM-DD) or null.')
      .nullable()
      .optional()
      .describe('The last day to apply (YYYY-MM-DD); null or left out: none.'),
  })
  .strict();
export type UpsertJobBody = z.infer<typeof upsertJobBodySchema>;

export const integrationJobSchema = z.object({
  id: z
    .number()
    .int()
    .describe('The job’s id in the messenger (the `job_id` of conversations and messages).'),
  external_id: z.string().describe('The job’s id on the host site, as in the path.'),
  title: z.string().describe('The job’s title.'),
  status: z.string().describe('`active` or `inactive`.'),
  deadline: z.string().nullable().describe('The application deadline (YYYY-MM-DD); null: none.'),
  company_id: z.number().int().describe('The messenger’s user id of the company that posts it.'),
});
export const integrationJobResponseSchema = z.object({
  job: integrationJobSchema.describe('The job as stored.'),
});

export const setApplicationBodySchema = z
  .object({
    group: plainText(100)
      .nullable()
      .describe(
        'The application’s group on the host site (e.g. `Shortlist`, at most 100 characters), shown to the company in the chat header; null: none.',
      ),
  })
  .strict();
export const applicationResponseSchema = z.object({
  application: z
    .object({
      job_id: z.number().int().describe('The job’s id in the messenger.'),
      candidate_id: z.number().int().describe('The candidate’s user id in the messenger.'),
      group: z.string().nullable().describe('The application’s group, as set; null: none.'),
    })
    .describe('The candidate’s application to the job, as stored.'),
});

export const startConversationBodySchema = z
  .object({
    company: externalIdSchema
      .meta({ examples: ['company:42'] })
      .describe(
        'The company’s external id (a user with role `company` or `owner`); an unknown one is a 422.',
      ),
    candidate: externalIdSchema
      .meta({ examples: ['candidate:7'] })
      .describe(
        'The candidate’s external id (a user with role `candidate`); an unknown one is a 422.',
      ),
    job: externalIdSchema
      .meta({ examples: ['job:991'] })
      .nullable()
      .optional()
      .describe(
        'The external id of the job the conversation is about (a job of that company); null or absent: a conversation about no job. Each company, candidate and job has one conversation.',
      ),
    message: z
      .object({
        from: z
          .enum(['company', 'candidate'])
          .describe('Which side sends it: `company` or `candidate`.'),
        text: visibleMessageTextSchema.describe(
          'The message’s text (trimmed, at most 5000 characters, something visible).',
        ),
        client_id: sendMessageBodySchema.shape.client_id.describe(
          'A UUID of yours that makes the message one: a repeated call with the same `client_id` sends nothing twice. Absent: derived from the conversation, the side and the text (so the same text again is not sent again: give each its own `client_id`).',
        ),
      })
      .strict()
      .optional()
      .describe(
        'A first message to send in the conversation, stored and delivered live as one sent from the page (it counts against HOST_SEND_RATE_PER_SECOND, not the users’ own send limits). Absent: only start or find the conversation.',
      ),
  })
  .strict();
export type StartConversationBody = z.infer<typeof startConversationBodySchema>;

export const startConversationResponseSchema = z.object({
  conversation: hostConversationSchema.describe(
    'The conversation as the company sees it (its `id` is the `messenger_user_id` of its messages and webhooks).',
  ),
  company_url: z
    .string()
    .describe(
      'The page opening this conversation for the company: `PUBLIC_URL/messages?target=…&tab=…`; send the company there through a sign-in link with its path as `next`.',
    ),
  candidate_url: z
    .string()
    .describe(
      'The page opening this conversation for the candidate (same form); link to it through a sign-in link.',
    ),
});
export type StartConversationResponse = z.infer<typeof startConversationResponseSchema>;
