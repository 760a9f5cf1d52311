import { z } from 'zod';
import {
  authUserSchema,
  chatSchema,
  jobSchema,
  messageGroupSchema,
  messengerUserSchema,
  receiverSchema,
  roleSchema,
  uploadedAttachmentSchema,
} from './models.js';

import { MESSAGE_MAX_LENGTH, PAGE_LIMIT_MAX } from './paths.js';
import { containsNul, hasVisibleText } from './text.js';

export {
  BODY_LIMIT_BYTES,
  MESSAGE_MAX_LENGTH,
  PAGE_LIMIT_DEFAULT,
  PAGE_LIMIT_MAX,
  paths,
} from './paths.js';

/** Largest id: ids are PostgreSQL `serial` (`integer`) columns. Ids are 1..ID_MAX. */
export const ID_MAX = 2_147_483_647;
const ID_MESSAGE = `must be a whole number from 1 to ${ID_MAX}.`;

/** An id as the client sends it: a JSON number, or digits (route parameters, query strings, forms). */
const idInput = (message: string) =>
  z.union([z.number(), z.string().regex(/^\d{1,20}$/)], { error: message });
const idRange = (message: string) => z.number().int(message).min(1, message).max(ID_MAX, message);

/**
 * An id (1..2,147,483,647) as a JSON number or digits: anything else (a bigger number, a fraction,
 * `true`, `"1e3"`) is a 422 naming the field, never a database error.
 */
export const idSchema = idInput(ID_MESSAGE).transform(Number).pipe(idRange(ID_MESSAGE));
const id = idSchema;
const JOB_ID_MESSAGE = `must be null or a whole number from 1 to ${ID_MAX}.`;
/** A job id, or `null` / `''` for "no job". */
const nullableJobId = z
  .union([z.null(), z.literal(''), idInput(JOB_ID_MESSAGE)], { error: JOB_ID_MESSAGE })
  .transform((value) => (value === null || value === '' ? null : Number(value)))
  .pipe(idRange(JOB_ID_MESSAGE).nullable());

/** Text that PostgreSQL can store: no NUL character. */
export const storableText = (field: string) =>
  z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? `The ${field} field is required.`
          : `The ${field} must be a string.`,
    })
    .refine((value) => !containsNul(value), {
      message: `The ${field} may not contain a NUL character.`,
      abort: true,
    });

/** Query parameters every messaging call carries. */
export const defaultQuerySchema = z.object({
  key: z.string().optional(),
  token: z.string().optional(),
});

/** Largest page of `GET /load/messengers/initial/data`. */
export const LIST_LIMIT_MAX = 200;
const LIST_LIMIT_MESSAGE = `must be a whole number from 1 to ${LIST_LIMIT_MAX}.`;
const SEARCH_MAX_LENGTH = 200;

/** A cursor is opaque base64url text; the server checks what it carries. */
const CURSOR_MESSAGE = 'is not a cursor from a previous answer.';

export const initialDataQuerySchema = z.object({
  job_id: nullableJobId.optional().transform((value) => value ?? null),
  /** A page of at most `limit` conversations (without it, all of them). */
  limit: z
    .string({ error: LIST_LIMIT_MESSAGE })
    .regex(/^\d{1,4}$/, LIST_LIMIT_MESSAGE)
    .transform(Number)
    .pipe(z.number().int().min(1, LIST_LIMIT_MESSAGE).max(LIST_LIMIT_MAX, LIST_LIMIT_MESSAGE))
    .optional(),
  /** The previous page's `next_cursor` (only with `limit`). */
  cursor: z
    .string({ error: CURSOR_MESSAGE })
    .max(500, CURSOR_MESSAGE)
    .regex(/^[A-Za-z0-9_-]+$/, CURSOR_MESSAGE)
    .optional(),
  /** Case-insensitive "contains" on the other party's name and the job title; empty = no search. */
  search: storableText('search')
    .max(SEARCH_MAX_LENGTH, `The search may not be greater than ${SEARCH_MAX_LENGTH} characters.`)
    .transform((value) => value.trim())
    .optional()
    .transform((value) => value || undefined),
  /** Only the conversations whose archive flag for the viewer is this value. */
  archived: z
    .enum(['0', '1'], { error: 'must be 0 or 1.' })
    .optional()
    .transform((value) => (value === undefined ? undefined : value === '1')),
});
export type InitialDataQuery = z.infer<typeof initialDataQuerySchema>;

export const initialDataResponseSchema = z.object({
  jobs: z.array(jobSchema),
  messengerUsers: z.array(messengerUserSchema),
  auth: authUserSchema,
  /** Unread messages over all the viewer's conversations (whatever the filters). */
  unread_total: z.number().int(),
  /** How many conversations the viewer has archived (whatever the filters). */
  archived_count: z.number().int(),
  /** Only with `limit`: the cursor of the next page, `null` on the last one. */
  next_cursor: z.string().nullable().optional(),
});
export type InitialDataResponse = z.infer<typeof initialDataResponseSchema>;

export const getMessageBodySchema = z.object({
  receiver_id: id,
  job_id: nullableJobId.optional().transform((value) => value ?? null),
  before: id.optional(),
  limit: z
    .union([z.number(), z.string().regex(/^\d{1,20}$/)])
    .transform(Number)
    .pipe(z.number().int().min(1).max(PAGE_LIMIT_MAX))
    .optional(),
});
export type GetMessageBody = z.input<typeof getMessageBodySchema>;

export const applicationGroupSchema = z.object({ id: z.number().int(), name: z.string() });

export const getMessageResponseSchema = z.object({
  receiver: receiverSchema,
  receiverJob: jobSchema.nullable(),
  messages: z.array(messageGroupSchema),
  has_more: z.boolean(),
  messengerUser: messengerUserSchema,
  application_group: applicationGroupSchema.nullable(),
});
export type GetMessageResponse = z.infer<typeof getMessageResponseSchema>;

/**
 * Text a person typed: storable, trimmed, then at most `max` characters. `required`: something left
 * once trimmed; `visible`: something to show (only spaces, zero-width characters or bidi marks show
 * nothing, so there is nothing to send).
 */
export const typedText = (field: string, max: number, needs?: 'required' | 'visible') => {
  const required = `The ${field} field is required.`;
  const text =
    needs === 'required'
      ? z.string().min(1, required)
      : needs === 'visible'
        ? z.string().refine(hasVisibleText, { message: required, abort: true })
        : z.string();
  return storableText(field)
    .transform((value) => value.trim())
    .pipe(text.max(max, `The ${field} may not be greater than ${max} characters.`));
};

/** A message's text that must show something (the integration API's `message.text`). */
export const visibleMessageTextSchema = typedText('message', MESSAGE_MAX_LENGTH, 'visible');

/** A message's text as sends and edits take it (empty only with files: the services check). */
export const messageTextSchema = typedText('message', MESSAGE_MAX_LENGTH);

import { ATTACHMENTS_PER_MESSAGE } from './attachments.js';
export { ATTACHMENTS_PER_MESSAGE };

export const sendMessageBodySchema = z
  .object({
    receiver_id: id,
    messenger_user: id,
    job_id: nullableJobId,
    message: messageTextSchema,
    client_id: z.string().uuid().optional(),
    /** The sender's own unused uploads; with them the text may be empty. */
    attachment_ids: z
      .array(id)
      .max(ATTACHMENTS_PER_MESSAGE, `At most ${ATTACHMENTS_PER_MESSAGE} files per message.`)
      .refine((ids) => new Set(ids).size === ids.length, 'Each file may be attached once.')
      .optional(),
  })
  .superRefine((body, context) => {
    // Only spaces, zero-width characters or bidi marks: nothing to show; fine only with files.
    const hasFiles = (body.attachment_ids?.length ?? 0) > 0;
    if (hasVisibleText(body.message) || (hasFiles && body.message === '')) return;
    context.addIssue({
      code: 'custom',
      path: ['message'],
      message: 'The message field is required.',
    });
  });
export type SendMessageBody = z.input<typeof sendMessageBodySchema>;

export const sendMessageResponseSchema = z.object({
  message: chatSchema,
  messengerUser: messengerUserSchema,
});
export type SendMessageResponse = z.infer<typeof sendMessageResponseSchema>;

export const messengerUserResponseSchema = z.object({ messengerUser: messengerUserSchema });
export type MessengerUserResponse = z.infer<typeof messengerUserResponseSchema>;

export const messengerUserParamsSchema = z.object({ id });

export const credentialsSchema = z.object({
  email: z.string().trim().toLowerCase().email().max(254),
  password: z.string().min(1).max(1024),
});
export type Credentials = z.input<typeof credentialsSchema>;

/** `POST /api/tokens`: the credentials, and optionally a name to recognise the token by. */
export const tokenRequestSchema = credentialsSchema.extend({
  name: storableText('name').trim().min(1).max(100).optional(),
});
export type TokenRequest = z.input<typeof tokenRequestSchema>;

export const tokenSummarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  expires_at: z.string(),
});
export const tokenListResponseSchema = z.object({ tokens: z.array(tokenSummarySchema) });
export type TokenListResponse = z.infer<typeof tokenListResponseSchema>;

export const loginResponseSchema = z.object({ user: authUserSchema });

/** `GET /api/demo-accounts` (demo mode only): the accounts the sign-in page offers. */
export const demoAccountsResponseSchema = z.object({
  accounts: z.array(z.object({ email: z.string(), name: z.string(), role: roleSchema })),
});
export type DemoAccountsResponse = z.infer<typeof demoAccountsResponseSchema>;
export const tokenResponseSchema = z.object({ token: z.string() });

export const messengerConfigSchema = z.object({
  key: z.string(),
  locales: z.array(z.string()),
  fallbackLocale: z.string(),
  broadcaster: z.object({
    key: z.string(),
    cluster: z.string(),
    wsHost: z.string().optional(),
    wsPort: z.number().int().optional(),
    wssPort: z.number().int().optional(),
    forceTLS: z.boolean(),
    authEndpoint: z.string(),
    userAuthEndpoint: z.string().optional(),
  }),
  /** How long after sending its sender may edit or delete a message (`EDIT_WINDOW_SECONDS`). */
  edit_window_seconds: z.number().int().min(0).optional(),
  /** The site's name (`SITE_NAME`); absent from an older server. */
  site_name: z.string().optional(),
  /** The site's logo (`BRAND_LOGO_URL`), null: the product's own mark. */
  brand_logo_url: z.string().nullable().optional(),
  /** The site's accent (`BRAND_COLOR`, `#rrggbb`); text on it is black or white, whichever contrasts more. */
  brand_color: z.string().optional(),
});
export type MessengerConfig = z.infer<typeof messengerConfigSchema>;

/**
 * Query parameters of the pages, read by the page's script (documented in the OpenAPI document):
 * `/messages?target=<user id>&tab=<conversation id>` opens a conversation, `lang` picks the language,
 * `/login?next=<same-origin path>` is where signing in lands.
 */
const pageLanguage = z.enum(['en', 'ar']).optional();
export const messagesPageQuerySchema = z.object({
  target: z
    .string()
    .regex(/^\d{1,20}$/)
    .optional(),
  tab: z
    .string()
    .regex(/^\d{1,20}$/)
    .optional(),
  lang: pageLanguage,
});
export const loginPageQuerySchema = z.object({ next: z.string().optional(), lang: pageLanguage });

export const errorResponseSchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

export { uploadedAttachmentSchema };
export type UploadedAttachment = z.infer<typeof uploadedAttachmentSchema>;
export const uploadAttachmentResponseSchema = z.object({ attachment: uploadedAttachmentSchema });
export type UploadAttachmentResponse = z.infer<typeof uploadAttachmentResponseSchema>;
/** The multipart body of an upload: one file in the field `file`. */
export const uploadAttachmentBodySchema = z.object({
  file: z.string().optional().describe('The file (binary), at most 10 MiB.'),
});
