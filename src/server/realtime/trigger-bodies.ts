import { z } from 'zod';
import {
  MAX_BATCH_EVENTS,
  MAX_CHANNELS_PER_TRIGGER,
  MAX_EVENT_DATA_BYTES,
  MAX_EVENT_NAME_LENGTH,
  SOCKET_ID_PATTERN,
  isValidChannelName,
} from './protocol.js';
import { fail, type VerifyResult } from './trigger-verify.js';

/** The bodies of the Pusher HTTP API's trigger requests, checked and decoded. */

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
