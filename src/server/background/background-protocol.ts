import { z } from 'zod';
import { presenceChangedEventSchema } from '../../shared/events.js';
import type { Config } from '../config.js';

/**
 * What the request thread and the background thread (background-thread.ts) say to each other over
 * the worker's message port. Both sides parse what they receive with these schemas.
 */

const outboxOutcome = z.enum(['done', 'retry', 'gave_up']);

/** From the background thread. */
export const fromBackgroundSchema = z.discriminatedUnion('type', [
  /** Built and started: the outbox is polled, uploads are swept. */
  z.object({ type: z.literal('started') }),
  /** How an outbox attempt ended: counted in the request thread's metrics. */
  z.object({ type: z.literal('outboxOutcome'), kind: z.string(), outcome: outboxOutcome }),
  /** Who among `ids` is online: answered by the request thread's presence. */
  z.object({
    type: z.literal('onlineAmong'),
    id: z.number().int(),
    ids: z.array(z.number().int()),
  }),
  /** Publish a change of presence to these channels (the sockets and the broadcaster are there). */
  z.object({
    type: z.literal('presencePublish'),
    channels: z.array(z.string()),
    event: presenceChangedEventSchema,
  }),
  /** An announcement asked for is done (its publishes were posted before this). */
  z.object({ type: z.literal('presenceDone'), id: z.number().int(), told: z.number().int() }),
  z.object({ type: z.literal('presenceFailed'), id: z.number().int(), message: z.string() }),
]);
export type FromBackground = z.infer<typeof fromBackgroundSchema>;

/** To the background thread. */
export const toBackgroundSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('onlineAmong'),
    id: z.number().int(),
    online: z.array(z.number().int()),
  }),
  z.object({ type: z.literal('onlineAmongFailed'), id: z.number().int(), message: z.string() }),
  /** Tell the user's online partners (presence-announcements.ts). */
  z.object({
    type: z.literal('presenceAnnounce'),
    id: z.number().int(),
    userId: z.number().int(),
    event: presenceChangedEventSchema,
    evenIfHidden: z.boolean(),
  }),
  /** The user went offline everywhere: last seen, partners told, waiting e-mails sent. */
  z.object({
    type: z.literal('presenceWentOffline'),
    id: z.number().int(),
    userId: z.number().int(),
    at: z.string(),
  }),
  /** Stop the outbox worker (claimed tasks are handed back) and the sweeper, close, exit. */
  z.object({ type: z.literal('stop') }),
]);
export type ToBackground = z.infer<typeof toBackgroundSchema>;

/**
 * The configuration as `workerData`: a `URL` cannot be structured-cloned, so each one travels as
 * `{ $url: href }` and is made a `URL` again on the other side. Everything else in `Config` is
 * plain data (strings, numbers, booleans, arrays, objects).
 */
const URL_MARK = '$url';

const encode = (value: unknown): unknown => {
  if (value instanceof URL) return { [URL_MARK]: value.href };
  if (Array.isArray(value)) return value.map(encode);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, encode(entry)]));
  return value;
};

const decode = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(decode);
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    const [first] = entries;
    if (entries.length === 1 && first?.[0] === URL_MARK && typeof first[1] === 'string')
      return new URL(first[1]);
    return Object.fromEntries(entries.map(([key, entry]) => [key, decode(entry)]));
  }
  return value;
};

export interface BackgroundWorkerData {
  config: unknown;
  /** PostgreSQL with a schema of its own (tests): the request thread's database's. */
  searchPath?: string;
}

export const toWorkerData = (config: Config, searchPath?: string): BackgroundWorkerData => ({
  config: encode(config),
  ...(searchPath === undefined ? {} : { searchPath }),
});

/** The configuration the request thread was given (it was parsed there already). */
export const configFromWorkerData = (data: BackgroundWorkerData): Config =>
  decode(data.config) as Config;
