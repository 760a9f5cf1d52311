import { z } from 'zod';

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
