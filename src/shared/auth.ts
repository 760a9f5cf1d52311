import { z } from 'zod';
import { idSchema, storableText } from './api-fields.js';
import { authUserSchema, roleSchema } from './models.js';

/** Signing in (`POST /login`, the demo accounts) and personal access tokens (`/api/tokens`). */

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

/** `DELETE /api/tokens/{id}`. */
export const tokenParamsSchema = z.object({
  id: idSchema.describe('The token’s id (from `GET /api/tokens`).'),
});

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
export const tokenResponseSchema = z.object({
  token: z
    .string()
    .describe(
      'The new personal access token: send it as `Authorization: Bearer …`. It is shown only this once.',
    ),
});
