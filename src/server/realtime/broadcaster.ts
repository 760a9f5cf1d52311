import PusherClient from 'pusher';
import {
  MAX_CHANNELS_PER_TRIGGER,
  MAX_EVENT_NAME_LENGTH,
  isValidChannelName,
  isValidSocketId,
  toEventData,
} from './protocol.js';
import type { PusherServer } from './pusher-server.js';
import type { RedisFanout } from './redis-fanout.js';
import type { Broadcaster, ExternalPusherOptions } from './types.js';

export type { Broadcaster } from './types.js';

/** A publish checked and with its data serialized once. */
export interface PreparedEvent {
  channels: string[];
  event: string;
  data: string;
  exceptSocketId?: string;
}

/** Validates a publish (channel names, event name, socket id) and serializes the data once. */
export const prepareEvent = (
  channels: string[],
  event: string,
  data: unknown,
  exceptSocketId?: string,
): PreparedEvent => {
  const unique = [...new Set(channels)];
  if (unique.length === 0 || unique.length > MAX_CHANNELS_PER_TRIGGER) {
    throw new RangeError(`Publish to 1–${MAX_CHANNELS_PER_TRIGGER} channels.`);
  }
  const invalid = unique.find((channel) => !isValidChannelName(channel));
  if (invalid !== undefined)
    throw new TypeError(`Invalid channel name: ${JSON.stringify(invalid)}`);
  if (event.length === 0 || event.length > MAX_EVENT_NAME_LENGTH)
    throw new TypeError('Invalid event name.');
  if (exceptSocketId !== undefined && !isValidSocketId(exceptSocketId)) {
    // A malformed X-Socket-ID excludes nobody rather than failing the send.
    exceptSocketId = undefined;
  }
  return {
    channels: unique,
    event,
    data: toEventData(data),
    ...(exceptSocketId === undefined ? {} : { exceptSocketId }),
  };
};

/** An embedded broadcaster: checks and serializes a publish once, then delivers it its own way. */
abstract class PreparingBroadcaster implements Broadcaster {
  async publish(
    channels: string[],
    event: string,
    data: unknown,
    exceptSocketId?: string,
  ): Promise<void> {
    await this.deliver(prepareEvent(channels, event, data, exceptSocketId));
  }

  abstract deliver(prepared: PreparedEvent): Promise<void> | void;
}

/** Embedded, single instance: delivers to this process's sockets before resolving. */
export class LocalBroadcaster extends PreparingBroadcaster {
  constructor(private readonly endpoint: PusherServer) {
    super();
  }

  deliver(prepared: PreparedEvent): void {
    this.endpoint.deliver(
      prepared.channels,
      prepared.event,
      prepared.data,
      prepared.exceptSocketId,
    );
  }
}

/** Embedded, several instances: publishes to Redis; every instance delivers from its subscription. */
export class RedisBroadcaster extends PreparingBroadcaster {
  constructor(private readonly fanout: RedisFanout) {
    super();
  }

  deliver(prepared: PreparedEvent): Promise<void> {
    return this.fanout.publish({
      t: 'event',
      channels: prepared.channels,
      event: prepared.event,
      data: prepared.data,
      ...(prepared.exceptSocketId === undefined ? {} : { except: prepared.exceptSocketId }),
    });
  }
}

/** The client of the official `pusher` package for a hosted or other Pusher-compatible service. */
export const createPusherClient = (
  credentials: { appId: string; key: string; secret: string },
  external: ExternalPusherOptions,
) =>
  new PusherClient({
    appId: credentials.appId,
    key: credentials.key,
    secret: credentials.secret,
    useTLS: external.scheme === 'https',
    ...(external.host
      ? {
          host: external.host,
          ...(external.port === undefined ? {} : { port: String(external.port) }),
        }
      : { cluster: external.cluster }),
  });

/**
 * Hosted / external service through the official `pusher` package. Publishes are sent one after
 * another so they arrive in the order they were made.
 */
export class ExternalBroadcaster implements Broadcaster {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly client: Pick<PusherClient, 'trigger'>) {}

  publish(
    channels: string[],
    event: string,
    data: unknown,
    exceptSocketId?: string,
  ): Promise<void> {
    let prepared: PreparedEvent;
    try {
      prepared = prepareEvent(channels, event, data, exceptSocketId);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    const send = async (): Promise<void> => {
      await this.client.trigger(
        prepared.channels,
        prepared.event,
        prepared.data,
        prepared.exceptSocketId === undefined ? undefined : { socket_id: prepared.exceptSocketId },
      );
    };
    const result = this.tail.then(send, send);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
