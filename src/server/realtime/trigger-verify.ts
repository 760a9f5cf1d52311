import { z } from 'zod';
import { safeEqual } from '../lib/crypto.js';
import { hmacSha256Hex, md5Hex } from './signatures.js';

/**
 * Verification of Pusher HTTP API requests (auth_version 1.0):
 * https://pusher.com/docs/channels/library_auth_reference/rest-api/#authentication
 * (the signature; replays: `trigger-replays.ts`; the bodies: `trigger-bodies.ts`).
 */

/** How far `auth_timestamp` may be from now, in seconds. */
export const MAX_TIMESTAMP_SKEW_SECONDS = 600;

export type VerifyFailure = {
  ok: false;
  status: 400 | 401 | 404 | 413 | 429 | 503;
  message: string;
  /** Sent as `Retry-After` (429, 503). */
  retryAfterSeconds?: number;
};
export type VerifyResult<T = undefined> = { ok: true; value: T } | VerifyFailure;

export const fail = (status: VerifyFailure['status'], message: string): VerifyFailure => ({
  ok: false,
  status,
  message,
});

/**
 * Parses a raw query string (no leading `?`) into a map; percent-decodes but leaves `+` alone (the
 * official libraries sign the values unencoded). `null` when a key repeats or the encoding is broken.
 */
export const parseQueryString = (query: string): Map<string, string> | null => {
  const params = new Map<string, string>();
  if (query === '') return params;
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const rawKey = eq === -1 ? part : part.slice(0, eq);
    const rawValue = eq === -1 ? '' : part.slice(eq + 1);
    let key: string;
    let value: string;
    try {
      key = decodeURIComponent(rawKey);
      value = decodeURIComponent(rawValue);
    } catch {
      return null;
    }
    if (params.has(key)) return null;
    params.set(key, value);
  }
  return params;
};

/** `k=v&…` sorted by (lower-cased) key, without `auth_signature`: the third line of the signed string. */
export const canonicalQueryString = (params: Map<string, string>): string =>
  [...params.entries()]
    .filter(([key]) => key !== 'auth_signature')
    .map(([key, value]) => [key.toLowerCase(), value] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');

export interface TriggerRequest {
  method: string;
  /** Path as requested, e.g. `/apps/123/events` (no query). */
  path: string;
  /** Raw query string (without `?`). */
  query: string;
  rawBody: Buffer;
}

export interface TriggerCredentials {
  key: string;
  secret: string;
}

/** What a verified request was signed with: the replay check remembers it. */
export interface VerifiedSignature {
  /** `auth_signature`, lower-cased hex. */
  signature: string;
  /** `auth_timestamp`, in seconds. */
  timestamp: number;
}

/**
 * The query parameters `verifyTriggerSignature` reads (it checks the raw query string itself:
 * the signature covers it byte for byte). Documents the trigger routes in the OpenAPI document.
 */
export const triggerQuerySchema = z.object({
  auth_key: z.string().describe('The app key (PUSHER_KEY).'),
  auth_timestamp: z
    .string()
    .regex(/^\d{1,12}$/)
    .describe(
      'When the request was signed, in seconds since 1970; refused more than 600 s away from the server’s clock.',
    ),
  auth_version: z.literal('1.0').describe('Always `1.0`.'),
  auth_signature: z
    .string()
    .describe('HMAC-SHA256 (hex) of the method, path and sorted query, keyed with PUSHER_SECRET.'),
  body_md5: z.string().optional().describe('The MD5 (hex) of the body; required with a body.'),
});

/**
 * Checks auth_key, auth_version, auth_timestamp (±600 s), body_md5 and auth_signature (constant
 * time). A request that passes may still be a replay: see `SeenSignatures`.
 */
export const verifyTriggerSignature = (
  request: TriggerRequest,
  credentials: TriggerCredentials,
  nowMs: number = Date.now(),
): VerifyResult<VerifiedSignature> => {
  const params = parseQueryString(request.query);
  if (!params) return fail(401, 'Malformed query string.');
  const authKey = params.get('auth_key');
  const authTimestamp = params.get('auth_timestamp');
  const authVersion = params.get('auth_version');
  const authSignature = params.get('auth_signature');
  const bodyMd5 = params.get('body_md5');
  if (
    authKey === undefined ||
    authTimestamp === undefined ||
    authVersion === undefined ||
    authSignature === undefined
  ) {
    return fail(401, 'Missing authentication parameters.');
  }
  if (!safeEqual(authKey, credentials.key)) return fail(401, 'Invalid key.');
  if (authVersion !== '1.0') return fail(401, 'Unsupported auth_version.');
  if (!/^\d{1,12}$/.test(authTimestamp)) return fail(401, 'Invalid auth_timestamp.');
  if (Math.abs(nowMs / 1000 - Number(authTimestamp)) > MAX_TIMESTAMP_SKEW_SECONDS) {
    return fail(
      401,
      'Timestamp expired: auth_timestamp must be within 600 seconds of the server time.',
    );
  }
  if (request.rawBody.length > 0 || bodyMd5 !== undefined) {
    if (bodyMd5 === undefined || !safeEqual(bodyMd5.toLowerCase(), md5Hex(request.rawBody))) {
      return fail(401, 'body_md5 does not match the body.');
    }
  }
  const stringToSign = `${request.method.toUpperCase()}\n${request.path}\n${canonicalQueryString(params)}`;
  const signature = authSignature.toLowerCase();
  if (!safeEqual(signature, hmacSha256Hex(credentials.secret, stringToSign))) {
    return fail(401, 'Invalid signature.');
  }
  return { ok: true, value: { signature, timestamp: Number(authTimestamp) } };
};
