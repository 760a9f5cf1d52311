import { z } from 'zod';
import { externalIdSchema, localeSchema, upsertUserBodySchema } from './integration.js';
import { roleSchema } from './models.js';

/** A sign-in link may live this long at most: `exp − iat ≤ 600`. */
export const SSO_MAX_LIFETIME_SECONDS = 600;
/** Clock skew allowed between the host that signs a link and this server. */
export const SSO_CLOCK_SKEW_SECONDS = 60;

const numericDate = z.number().finite().nonnegative();

/**
 * The claims of a sign-in link (a JWT signed with SSO_SECRET, HS256). `sub`, `jti`, `exp` and `iat`
 * are required (`iat` so that the lifetime can be checked: a link without it is refused). The profile
 * claims are those of `PUT /api/v1/users/{externalId}`; other claims (`iss`, `aud`, …) are ignored.
 */
export const ssoClaimsSchema = z
  .object({
    sub: externalIdSchema,
    jti: z.string().min(1).max(255),
    iat: numericDate,
    exp: numericDate,
    role: roleSchema.optional(),
    name: upsertUserBodySchema.shape.name.optional(),
    email: upsertUserBodySchema.shape.email,
    image_url: upsertUserBodySchema.shape.image_url,
    locale: localeSchema.nullable().optional(),
    /** Where to land: a same-origin path; anything else (even a number) lands on /messages. */
    next: z
      .unknown()
      .transform((value) => (typeof value === 'string' && value.length <= 2048 ? value : ''))
      .optional(),
  })
  .refine((claims) => claims.exp - claims.iat <= SSO_MAX_LIFETIME_SECONDS, {
    message: `must live at most ${SSO_MAX_LIFETIME_SECONDS} seconds (exp − iat).`,
    path: ['exp'],
  });
export type SsoClaims = z.infer<typeof ssoClaimsSchema>;
