import { z } from 'zod';
import {
  MAX_BATCH_EVENTS,
  MAX_CHANNELS_PER_TRIGGER,
  MAX_EVENT_DATA_BYTES,
  MAX_EVENT_NAME_LENGTH,
  SOCKET_ID_PATTERN,
  isValidChannelName,
} from './protocol.js';
import { safeEqual } from '../lib/crypto.js';
import { hmacSha256Hex, md5Hex } from './signatures.js';

/**
 * Verification of Pusher HTTP API requests (auth_version 1.0):
 * https://pusher.com/docs/channels/library_auth_reference/rest-api/#authentication
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

const fail = (status: VerifyFailure['status'], message: string): VerifyFailure => ({
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

// ---------------------------------------------------------------------------
// Replays
// ---------------------------------------------------------------------------

/**
 * The signature covers the method, path, key, timestamp and body_md5, so the same signature means the
 * same request: an exact replay. A request is acceptable until its timestamp is 600 s old, so its
 * signature is remembered until then (plus a second for rounding).
 */
export const signatureExpiresAtMs = (timestampSeconds: number): number =>
  (timestampSeconds + MAX_TIMESTAMP_SKEW_SECONDS + 1) * 1000;

export const REPLAY_MESSAGE =
  'Replayed request: this signature was already used. Sign every request anew.';

/** Default cap on the signatures one instance remembers (about 130 bytes each). */
export const DEFAULT_MAX_REMEMBERED_SIGNATURES = 100_000;

/** `fresh`: first use, now remembered; `replay`: seen before; `full`: cannot remember more now. */
export type ClaimResult = 'fresh' | 'replay' | { full: true; retryAfterSeconds: number };

/** Where the signatures already used are remembered (this process, or shared through Redis). */
export interface SignatureMemory {
  /** Remembers a signature until `expiresAtMs`, unless it is already remembered. */
  claim(signature: string, expiresAtMs: number, nowMs?: number): Promise<ClaimResult>;
  /** Forgets a signature (its request was not carried out, so sending it again is no replay). */
  release(signature: string): Promise<void>;
}

/**
 * The signatures seen by this process while they are within the timestamp window. Memory is
 * bounded: expired entries are pruned (every minute, and whenever the cap is reached), and at the
 * cap a new signature is refused (429) rather than an old one forgotten, which would let it be
 * replayed.
 */
export class SeenSignatures implements SignatureMemory {
  private readonly entries = new Map<string, number>();
  private readonly maxEntries: number;
  private readonly now: () => number;
  private nextPruneAt = 0;

  constructor(options: { maxEntries?: number; now?: () => number } = {}) {
    this.maxEntries = options.maxEntries ?? DEFAULT_MAX_REMEMBERED_SIGNATURES;
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  async claim(signature: string, expiresAtMs: number, nowMs = this.now()): Promise<ClaimResult> {
    return this.claimNow(signature, expiresAtMs, nowMs);
  }

  /** The synchronous claim: two identical requests racing each other cannot both be fresh. */
  claimNow(signature: string, expiresAtMs: number, nowMs = this.now()): ClaimResult {
    const known = this.entries.get(signature);
    if (known !== undefined && known > nowMs) return 'replay';
    if (nowMs >= this.nextPruneAt || this.entries.size >= this.maxEntries) {
      const earliest = this.prune(nowMs);
      if (this.entries.size >= this.maxEntries) {
        return { full: true, retryAfterSeconds: Math.max(1, Math.ceil((earliest - nowMs) / 1000)) };
      }
    }
    this.entries.set(signature, expiresAtMs);
    return 'fresh';
  }

  async release(signature: string): Promise<void> {
    this.entries.delete(signature);
  }

  /** Drops the expired entries; returns the earliest expiry left (Infinity when none). */
  private prune(nowMs: number): number {
    this.nextPruneAt = nowMs + 60_000;
    let earliest = Number.POSITIVE_INFINITY;
    for (const [signature, expiresAt] of this.entries) {
      if (expiresAt <= nowMs) this.entries.delete(signature);
      else if (expiresAt < earliest) earliest = expiresAt;
    }
    return earliest;
  }
}

/** What a shared store (Redis) offers: set a key only if absent, with an expiry; delete a key. */
export interface OnceStore {
  /** True when the key was absent and is now set (Redis `SET key 1 PX ttl NX`). */
  setOnce(key: string, ttlMs: number): Promise<boolean>;
  forget(key: string): Promise<void>;
}

/**
 * Signatures remembered by this process and in a store every instance shares, so that a request
 * replayed against another instance is refused too. The local memory answers same-instance replays
 * without a round trip; when the shared store cannot be reached the claim fails (the caller answers
 * 503, as the delivery through Redis would fail anyway) and the local entry is dropped so a retry
 * can go through.
 */
export const sharedSignatureMemory = (
  local: SeenSignatures,
  shared: OnceStore,
  keyPrefix: string,
): SignatureMemory => ({
  claim: async (signature, expiresAtMs, nowMs = Date.now()) => {
    const result = local.claimNow(signature, expiresAtMs, nowMs);
    if (result !== 'fresh') return result;
    let first: boolean;
    try {
      first = await shared.setOnce(
        `${keyPrefix}${signature}`,
        Math.max(1_000, expiresAtMs - nowMs),
      );
    } catch (error) {
      await local.release(signature);
      throw error;
    }
    // The shared store is the authority: locally, remember only what this instance claimed.
    if (!first) await local.release(signature);
    return first ? 'fresh' : 'replay';
  },
  release: async (signature) => {
    await local.release(signature);
    await shared.forget(`${keyPrefix}${signature}`);
  },
});

// ---------------------------------------------------------------------------
// Bodies
// ---------------------------------------------------------------------------

const eventNameSchema = z
  .string()
  .min(1)
  .max(MAX_EVENT_NAME_LENGTH)
  .refine(
    (name) => !name.startsWith('pusher:') && !name.startsWith('pusher_internal:'),
    'Reserved event name.',
  );
const channelNameSchema = z.string().refine(isValidChannelName, 'Invalid channel name.');
const socketIdSchema = z.string().regex(SOCKET_ID_PATTERN, 'Invalid socket_id.');

/** `POST /apps/{appId}/events`. */
export const triggerEventBodySchema = z
  .object({
    name: eventNameSchema.describe('The event’s name (not `pusher:…`).'),
    data: z.string().describe('The event’s data, as text (usually JSON).'),
    channels: z
      .array(channelNameSchema)
      .min(1)
      .max(MAX_CHANNELS_PER_TRIGGER)
      .optional()
      .describe('The channels to publish to (either this or `channel`).'),
    channel: channelNameSchema
      .optional()
      .describe('The one channel to publish to (either this or `channels`).'),
    socket_id: socketIdSchema
      .optional()
      .describe('A socket not to deliver it to (the sender’s own).'),
    info: z
      .string()
      .optional()
      .describe('Attributes to answer about the channels (accepted, answered empty).'),
  })
  .refine((body) => (body.channels === undefined) !== (body.channel === undefined), {
    message: 'Give either channels or channel.',
  });

const batchEventSchema = z.object({
  name: eventNameSchema.describe('The event’s name (not `pusher:…`).'),
  data: z.string().describe('The event’s data, as text (usually JSON).'),
  channel: channelNameSchema.describe('The channel to publish to.'),
  socket_id: socketIdSchema
    .optional()
    .describe('A socket not to deliver it to (the sender’s own).'),
  info: z
    .string()
    .optional()
    .describe('Attributes to answer about the channel (accepted, answered empty).'),
});
/** `POST /apps/{appId}/batch_events`. */
export const triggerBatchBodySchema = z.object({
  batch: z
    .array(batchEventSchema)
    .min(1)
    .max(MAX_BATCH_EVENTS)
    .describe('The events to publish, in order.'),
});

/** One event to deliver, as decoded from the HTTP API. */
export interface TriggerEvent {
  channels: string[];
  name: string;
  /** Delivered as is (already JSON text when structured). */
  data: string;
  socketId?: string;
}

const parseJson = (rawBody: Buffer): VerifyResult<unknown> => {
  try {
    return { ok: true, value: JSON.parse(rawBody.toString('utf8')) as unknown };
  } catch {
    return fail(400, 'The request body is not valid JSON.');
  }
};

const describe = (error: z.ZodError): string =>
  error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; ');

const dataTooLarge = (data: unknown): boolean =>
  typeof data === 'string' && Buffer.byteLength(data, 'utf8') > MAX_EVENT_DATA_BYTES;

/** Decodes the body of `POST /apps/{id}/events`. */
export const parseEventsBody = (rawBody: Buffer): VerifyResult<TriggerEvent> => {
  const json = parseJson(rawBody);
  if (!json.ok) return json;
  const data = (json.value as { data?: unknown } | null)?.data;
  if (dataTooLarge(data)) return fail(413, `The event data is over ${MAX_EVENT_DATA_BYTES} bytes.`);
  const parsed = triggerEventBodySchema.safeParse(json.value);
  if (!parsed.success) return fail(400, describe(parsed.error));
  const body = parsed.data;
  const channels = [
    ...new Set(body.channels ?? (body.channel === undefined ? [] : [body.channel])),
  ];
  return {
    ok: true,
    value: {
      channels,
      name: body.name,
      data: body.data,
      ...(body.socket_id === undefined ? {} : { socketId: body.socket_id }),
    },
  };
};

/** Decodes the body of `POST /apps/{id}/batch_events`. */
export const parseBatchBody = (rawBody: Buffer): VerifyResult<TriggerEvent[]> => {
  const json = parseJson(rawBody);
  if (!json.ok) return json;
  const batch = (json.value as { batch?: unknown } | null)?.batch;
  if (
    Array.isArray(batch) &&
    batch.some((event) => dataTooLarge((event as { data?: unknown } | null)?.data))
  ) {
    return fail(413, `An event's data is over ${MAX_EVENT_DATA_BYTES} bytes.`);
  }
  const parsed = triggerBatchBodySchema.safeParse(json.value);
  if (!parsed.success) return fail(400, describe(parsed.error));
  return {
    ok: true,
    value: parsed.data.batch.map((event) => ({
      channels: [event.channel],
      name: event.name,
      data: event.data,
      ...(event.socket_id === undefined ? {} : { socketId: event.socket_id }),
    })),
  };
};
