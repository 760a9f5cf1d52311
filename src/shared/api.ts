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
  key: z
    .string()
    .optional()
    .describe(
      'The application key from `GET /messenger/config` (every messaging call carries it; absent or wrong: 401).',
    ),
  token: z
    .string()
    .optional()
    .describe(
      'A personal access token, for a caller without the session cookie (empty in the browser).',
    ),
});

/** Largest page of `GET /load/messengers/initial/data`. */
export const LIST_LIMIT_MAX = 200;
const LIST_LIMIT_MESSAGE = `must be a whole number from 1 to ${LIST_LIMIT_MAX}.`;
const SEARCH_MAX_LENGTH = 200;

/** A cursor is opaque base64url text; the server checks what it carries. */
const CURSOR_MESSAGE = 'is not a cursor from a previous answer.';

export const initialDataQuerySchema = z.object({
  job_id: nullableJobId
    .optional()
    .transform((value) => value ?? null)
    .describe(
      'Only the conversations about this job (a job id); absent, empty or `null`: every conversation.',
    ),
  /** A page of at most `limit` conversations (without it, all of them). */
  limit: z
    .string({ error: LIST_LIMIT_MESSAGE })
    .regex(/^\d{1,4}$/, LIST_LIMIT_MESSAGE)
    .transform(Number)
    .pipe(z.number().int().min(1, LIST_LIMIT_MESSAGE).max(LIST_LIMIT_MAX, LIST_LIMIT_MESSAGE))
    .optional()
    .describe(
      'A page of at most this many conversations (1–200), newest activity first; absent: all of them in one answer.',
    ),
  /** The previous page's `next_cursor` (only with `limit`). */
  cursor: z
    .string({ error: CURSOR_MESSAGE })
    .max(500, CURSOR_MESSAGE)
    .regex(/^[A-Za-z0-9_-]+$/, CURSOR_MESSAGE)
    .optional()
    .describe(
      'The `next_cursor` of the previous page (only with `limit`); absent: the first page.',
    ),
  /** Case-insensitive "contains" on the other party's name and the job title; empty = no search. */
  search: storableText('search')
    .max(SEARCH_MAX_LENGTH, `The search may not be greater than ${SEARCH_MAX_LENGTH} characters.`)
    .transform((value) => value.trim())
    .optional()
    .transform((value) => value || undefined)
    .describe(
      'Only conversations whose other party’s name or job title contains this text (case-insensitive, at most 200 characters); empty: no search.',
    ),
  /** Only the conversations whose archive flag for the viewer is this value. */
  archived: z
    .enum(['0', '1'], { error: 'must be 0 or 1.' })
    .optional()
    .transform((value) => (value === undefined ? undefined : value === '1'))
    .describe(
      '`1`: only the conversations the viewer archived; `0`: only those not archived; absent: both.',
    ),
});
export type InitialDataQuery = z.infer<typeof initialDataQuerySchema>;

export const initialDataResponseSchema = z.object({
  jobs: z.array(jobSchema).describe('The jobs of the viewer’s conversations (for the job filter).'),
  messengerUsers: z
    .array(messengerUserSchema)
    .describe('The viewer’s conversations, newest activity first (one page of them with `limit`).'),
  auth: authUserSchema.describe('The signed-in user.'),
  /** Unread messages over all the viewer's conversations (whatever the filters). */
  unread_total: z
    .number()
    .int()
    .describe('Unread messages over all the viewer’s conversations, whatever the filters.'),
  /** How many conversations the viewer has archived (whatever the filters). */
  archived_count: z
    .number()
    .int()
    .describe('How many conversations the viewer archived, whatever the filters.'),
  /** Only with `limit`: the cursor of the next page, `null` on the last one. */
  next_cursor: z
    .string()
    .nullable()
    .optional()
    .describe(
      'Only with `limit`: pass it back as `cursor` for the next page; null on the last page.',
    ),
});
export type InitialDataResponse = z.infer<typeof initialDataResponseSchema>;

export const getMessageBodySchema = z.object({
  receiver_id: id.describe('The other party’s user id.'),
  job_id: nullableJobId
    .optional()
    .transform((value) => value ?? null)
    .describe('The conversation’s job id; absent, empty or `null`: the conversation about no job.'),
  before: id
    .optional()
    .describe('Only messages older than this message id (the next page back); absent: the latest.'),
  limit: z
    .union([z.number(), z.string().regex(/^\d{1,20}$/)])
    .transform(Number)
    .pipe(z.number().int().min(1).max(PAGE_LIMIT_MAX))
    .optional()
    .describe('How many messages at most (1–100); absent: the server’s default page (50).'),
});
export type GetMessageBody = z.input<typeof getMessageBodySchema>;

export const applicationGroupSchema = z.object({
  id: z.number().int().describe('The group’s id.'),
  name: z.string().describe('The group’s name, as the host set it (e.g. `Shortlist`).'),
});

export const getMessageResponseSchema = z.object({
  receiver: receiverSchema.describe('The other party of the conversation.'),
  receiverJob: jobSchema.nullable().describe('The conversation’s job; null: about no job.'),
  messages: z
    .array(messageGroupSchema)
    .describe('The page of messages grouped by day, oldest first; reading them marks them seen.'),
  has_more: z
    .boolean()
    .describe('True when older messages remain: ask again with `before` set to the oldest id.'),
  messengerUser: messengerUserSchema.describe('The conversation as the viewer sees it.'),
  application_group: applicationGroupSchema
    .nullable()
    .describe(
      'For a company viewer, the candidate’s application group for the job (set by the host); null otherwise.',
    ),
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
    receiver_id: id.describe('The other party’s user id.'),
    messenger_user: id.describe(
      'The conversation’s id (a `MessengerUser` id of which the sender is a party).',
    ),
    job_id: nullableJobId.describe(
      'The conversation’s job id; `null` or empty: the conversation about no job.',
    ),
    message: messageTextSchema.describe(
      'The text (trimmed, at most 5000 characters); empty only with files.',
    ),
    client_id: z
      .string()
      .uuid()
      .optional()
      .describe(
        'A UUID the sender picks, echoed in the answer and the live event: the same `client_id` again sends nothing twice.',
      ),
    /** The sender's own unused uploads; with them the text may be empty. */
    attachment_ids: z
      .array(id)
      .max(ATTACHMENTS_PER_MESSAGE, `At most ${ATTACHMENTS_PER_MESSAGE} files per message.`)
      .refine((ids) => new Set(ids).size === ids.length, 'Each file may be attached once.')
      .optional()
      .describe('Ids of the sender’s own unused uploads to send with it (at most 5, each once).'),
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
  message: chatSchema.describe('The message as stored.'),
  messengerUser: messengerUserSchema.describe(
    'The conversation as the sender sees it after the send.',
  ),
});
export type SendMessageResponse = z.infer<typeof sendMessageResponseSchema>;

export const messengerUserResponseSchema = z.object({
  messengerUser: messengerUserSchema.describe(
    'The conversation as the viewer sees it after the change.',
  ),
});
export type MessengerUserResponse = z.infer<typeof messengerUserResponseSchema>;

export const messengerUserParamsSchema = z.object({
  id: id.describe(
    'The conversation’s id (a `MessengerUser` id; the viewer must be one of its two parties).',
  ),
});
/** `DELETE /api/tokens/{id}`. */
export const tokenParamsSchema = z.object({
  id: id.describe('The token’s id (from `GET /api/tokens`).'),
});

export const credentialsSchema = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .email()
    .max(254)
    .describe('The account’s e-mail address (case does not matter).'),
  password: z.string().min(1).max(1024).describe('The account’s password.'),
});
export type Credentials = z.input<typeof credentialsSchema>;

/** `POST /api/tokens`: the credentials, and optionally a name to recognise the token by. */
export const tokenRequestSchema = credentialsSchema.extend({
  name: storableText('name')
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe('A name to recognise the token by (1–100 characters); absent: `API token`.'),
});
export type TokenRequest = z.input<typeof tokenRequestSchema>;

export const tokenSummarySchema = z.object({
  id: z.number().int().describe('The token’s id (for `DELETE /api/tokens/{id}`).'),
  name: z.string().describe('The name it was given.'),
  created_at: z.string().describe('When it was issued (ISO 8601, UTC).'),
  last_used_at: z
    .string()
    .nullable()
    .describe('When it was last used (ISO 8601, UTC); null: never.'),
  expires_at: z.string().describe('When it stops working (ISO 8601, UTC).'),
});
export const tokenListResponseSchema = z.object({
  tokens: z
    .array(tokenSummarySchema)
    .describe(
      'The signed-in user’s personal access tokens (the tokens themselves are never shown again).',
    ),
});
export type TokenListResponse = z.infer<typeof tokenListResponseSchema>;

export const loginResponseSchema = z.object({
  user: authUserSchema.describe('The user now signed in.'),
});

/** `GET /api/demo-accounts` (demo mode only): the accounts the sign-in page offers. */
export const demoAccountsResponseSchema = z.object({
  accounts: z
    .array(
      z.object({
        email: z.string().describe('The account’s e-mail address (its password is `password`).'),
        name: z.string().describe('The account’s name.'),
        role: roleSchema.describe('`candidate`, `company` or `owner`.'),
      }),
    )
    .describe('The demo accounts, in the order the page lists them.'),
});
export type DemoAccountsResponse = z.infer<typeof demoAccountsResponseSchema>;
export const tokenResponseSchema = z.object({
  token: z
    .string()
    .describe(
      'The new personal access token: send it as `Authorization: Bearer …`. It is shown only this once.',
    ),
});

export const messengerConfigSchema = z.object({
  key: z
    .string()
    .describe('The application key: send it as the `key` query parameter of every messaging call.'),
  locales: z.array(z.string()).describe('The languages the page offers (`en`, `ar`).'),
  fallbackLocale: z.string().describe('The language used when no other is chosen (`en`).'),
  broadcaster: z
    .object({
      key: z.string().describe('The broadcaster’s public app key, for pusher-js.'),
      cluster: z
        .string()
        .describe(
          'The Pusher cluster name (pusher-js requires one; the embedded server ignores it).',
        ),
      wsHost: z
        .string()
        .optional()
        .describe(
          'The websocket host; absent: the page’s own host (the embedded server) or the hosted Pusher’s.',
        ),
      wsPort: z
        .number()
        .int()
        .optional()
        .describe('The websocket port without TLS; absent: the page’s own.'),
      wssPort: z
        .number()
        .int()
        .optional()
        .describe('The websocket port with TLS; absent: the page’s own.'),
      forceTLS: z.boolean().describe('Connect over TLS only.'),
      authEndpoint: z
        .string()
        .describe('Where pusher-js asks to join a private channel (`POST /broadcasting/auth`).'),
      userAuthEndpoint: z
        .string()
        .optional()
        .describe('Where pusher-js authenticates the user (`POST /broadcasting/user-auth`).'),
    })
    .describe('How the page connects to the live events (pusher-js and laravel-echo options).'),
  /** How long after sending its sender may edit or delete a message (`EDIT_WINDOW_SECONDS`). */
  edit_window_seconds: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(
      'How many seconds after sending its sender may edit or delete a message (EDIT_WINDOW_SECONDS).',
    ),
  site_name: z
    .string()
    .optional()
    .describe('The site’s name (SITE_NAME); absent from an older server.'),
  brand_logo_url: z
    .string()
    .nullable()
    .optional()
    .describe('The site’s logo (BRAND_LOGO_URL); null: the product’s own mark.'),
  brand_color: z
    .string()
    .optional()
    .describe(
      'The site’s accent colour (BRAND_COLOR, `#rrggbb`); text on it is black or white, whichever contrasts more.',
    ),
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
    .optional()
    .describe('The user id of the other party to open a conversation with.'),
  tab: z
    .string()
    .regex(/^\d{1,20}$/)
    .optional()
    .describe('The conversation to open (its id).'),
  lang: pageLanguage.describe(
    'The page’s language, `en` or `ar`, chosen for this visit (and saved for a signed-in user).',
  ),
  embed: z
    .enum(['inbox', 'conversation', 'badge'])
    .optional()
    .describe(
      'The page embedded in a host page’s frame (`/embed.js`): `inbox` (the whole page), `conversation` (one, by `company`, `candidate`, `job`) or `badge` (the unread count). Needs `host_origin`.',
    ),
  host_origin: z
    .string()
    .optional()
    .describe(
      'With `embed`: the origin of the page framing it, exactly one of `EMBED_ORIGINS` (else 400); only that origin may frame the answer.',
    ),
  company: z
    .string()
    .optional()
    .describe('With `embed=conversation`: the company’s id on the host site.'),
  candidate: z
    .string()
    .optional()
    .describe('With `embed=conversation`: the candidate’s id on the host site.'),
  job: z
    .string()
    .optional()
    .describe('With `embed=conversation`: the job’s id on the host site (absent: about no job).'),
  color: z
    .string()
    .optional()
    .describe('With `embed`: the accent colour, `#rrggbb` (anything else is ignored).'),
  scheme: z
    .string()
    .optional()
    .describe('With `embed`: `light`, `dark` or `auto` (anything else is ignored).'),
  radius: z
    .string()
    .optional()
    .describe(
      'With `embed`: the corners’ radius, a length from `0` to `32px` or a number of px (anything else is ignored).',
    ),
  font: z
    .string()
    .optional()
    .describe(
      'With `embed`: a font-family list (letters, digits, spaces, `,`, `-`, `_`, quotes; anything else is ignored).',
    ),
});
export const loginPageQuerySchema = z.object({
  next: z
    .string()
    .optional()
    .describe(
      'Where to land after signing in: a path on this server; anything else lands on `/messages`.',
    ),
  lang: pageLanguage.describe('The page’s language, `en` or `ar`.'),
});

export const errorResponseSchema = z.object({
  message: z
    .string()
    .describe('What went wrong, in English, for people (e.g. "The given data was invalid.").'),
  errors: z
    .record(z.string(), z.array(z.string()))
    .optional()
    .describe(
      'Only for 422: each invalid field (dotted path, e.g. `settings.time_zone`; `_` for the whole body) with its messages.',
    ),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

export { uploadedAttachmentSchema };
export type UploadedAttachment = z.infer<typeof uploadedAttachmentSchema>;
export const uploadAttachmentResponseSchema = z.object({
  attachment: uploadedAttachmentSchema.describe(
    'The stored upload: send its `id` in `attachment_ids` of a message (unused uploads are removed after a while).',
  ),
});
export type UploadAttachmentResponse = z.infer<typeof uploadAttachmentResponseSchema>;
/** The multipart body of an upload: one file in the field `file`. */
export const uploadAttachmentBodySchema = z.object({
  file: z.string().optional().describe('The file (binary), at most 10 MiB.'),
});
