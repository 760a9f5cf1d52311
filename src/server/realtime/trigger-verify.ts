import { z } from 'zod';
import {
  MAX_BATCH_EVENTS,
  MAX_CHANNELS_PER_TRIGGER,
  MAX_EVENT_DATA_BYTES,
  MAX_EVENT_NAME_LENGTH,
  SOCKET_ID_PATTERN,
  isValidChannelName,
} from './protocol.js';
import { hmacSha256Hex, md5Hex, safeEqual } from './signatures.js';

/**
 * Verification of Pusher HTTP API requests (auth_version 1.0):
 * https://pusher.com/docs/channels/library_auth_reference/rest-api/#authentication
 */

/** How far `auth_timestamp` may be from now, in seconds. */
export const MAX_TIMESTAMP_SKEW_SECONDS = 600;

export type VerifyFailure = { ok: false; status: 400 | 401 | 404 | 413; message: string };
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

/** Checks auth_key, auth_version, auth_timestamp (±600 s), body_md5 and auth_signature (constant time). */
export const verifyTriggerSignature = (
  request: TriggerRequest,
  credentials: TriggerCredentials,
  nowMs: number = Date.now(),
): VerifyResult => {
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
  if (!safeEqual(authSignature.toLowerCase(), hmacSha256Hex(credentials.secret, stringToSign))) {
    return fail(401, 'Invalid signature.');
  }
  return { ok: true, value: undefined };
};

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

const eventBodySchema = z
  .object({
    name: eventNameSchema,
    data: z.string(),
    channels: z.array(channelNameSchema).min(1).max(MAX_CHANNELS_PER_TRIGGER).optional(),
    channel: channelNameSchema.optional(),
    socket_id: socketIdSchema.optional(),
    info: z.string().optional(),
  })
  .refine((body) => (body.channels === undefined) !== (body.channel === undefined), {
    message: 'Give either channels or channel.',
  });

const batchEventSchema = z.object({
  name: eventNameSchema,
  data: z.string(),
  channel: channelNameSchema,
  socket_id: socketIdSchema.optional(),
  info: z.string().optional(),
});
const batchBodySchema = z.object({ batch: z.array(batchEventSchema).min(1).max(MAX_BATCH_EVENTS) });

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
  const parsed = eventBodySchema.safeParse(json.value);
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
  const parsed = batchBodySchema.safeParse(json.value);
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
