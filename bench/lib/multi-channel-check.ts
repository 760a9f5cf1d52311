/**
 * One event published to many channels at once, as presence publishes (a user's change to every
 * contact's channel): with several instances, each channel's copy must reach its sockets once,
 * whichever instance published and wherever the other channels' sockets are. A send publishes to
 * two channels whose users sit on different instances, so only this shows a copy delivered once per
 * channel of the publish, or once per instance, instead of once.
 */
import PusherServer from 'pusher';
import { PRESENCE_CHANGED_EVENT, userChannelName } from '../../src/shared/events.js';
import type { PresenceArrival } from './delivery-client-worker.js';

/** Users whose channels a multi-channel publish names, per instance. */
const RECEIVERS_PER_INSTANCE = 5;

/** How long to wait for the copies, and then for any extra copy. */
const ARRIVAL_LIMIT_MS = 5_000;
const EXTRA_COPY_WAIT_MS = 300;

export interface MultiChannelTally {
  /** Publishes made (one from each instance). */
  publishes: number;
  /** Channels each publish named. */
  channelsPerPublish: number;
  /** (publish, named receiver) pairs that heard nothing. */
  missing: number;
  /** Copies beyond the first at a named receiver. */
  doubled: number;
  /** Copies at a receiver the publish did not name. */
  misdelivered: number;
}

/**
 * The receivers to name: the first `perInstance` users held by each instance (so that every
 * instance holds several channels of one publish).
 */
export const multiChannelReceivers = (
  placement: ReadonlyMap<number, number>,
  perInstance = RECEIVERS_PER_INSTANCE,
): number[] => {
  const taken = new Map<number, number>();
  const receivers: number[] = [];
  for (const [userId, instance] of placement) {
    const count = taken.get(instance) ?? 0;
    if (count >= perInstance) continue;
    taken.set(instance, count + 1);
    receivers.push(userId);
  }
  return receivers;
};

/** The marker of the publish made through instance `index` (a user id no real user has). */
export const publishMarker = (index: number): number => -(index + 1);

/** Counts the arrivals of the marked publishes against the receivers they named. */
export const tallyMultiChannel = (
  arrivals: readonly PresenceArrival[],
  receivers: readonly number[],
  publishes: number,
): MultiChannelTally => {
  const named = new Set(receivers);
  const markers = new Set(Array.from({ length: publishes }, (_, index) => publishMarker(index)));
  const copies = new Map<string, number>();
  let misdelivered = 0;
  for (const arrival of arrivals) {
    if (!markers.has(arrival.userId)) continue;
    if (!named.has(arrival.receiverId)) {
      misdelivered += 1;
      continue;
    }
    const key = `${arrival.userId}:${arrival.receiverId}`;
    copies.set(key, (copies.get(key) ?? 0) + 1);
  }
  let missing = 0;
  let doubled = 0;
  for (const marker of markers)
    for (const receiver of receivers) {
      const count = copies.get(`${marker}:${receiver}`) ?? 0;
      if (count === 0) missing += 1;
      else doubled += count - 1;
    }
  return { publishes, channelsPerPublish: receivers.length, missing, doubled, misdelivered };
};

export interface MultiChannelTarget {
  /** The instances' HTTP ports, in placement order. */
  ports: number[];
  appId: string;
  key: string;
  secret: string;
  placement: ReadonlyMap<number, number>;
  /** The PresenceChanged events the clients heard since the last call (and forgets them). */
  takeArrivals: () => Promise<PresenceArrival[]>;
}

/**
 * One publish through each instance's Pusher HTTP API, every one naming the same receivers'
 * channels (several on each instance), then the copies the clients heard.
 */
export const checkMultiChannelPublish = async (
  target: MultiChannelTarget,
): Promise<MultiChannelTally> => {
  const receivers = multiChannelReceivers(target.placement);
  const channels = receivers.map((userId) => userChannelName(userId));
  await target.takeArrivals(); // nothing before the publishes counts
  await Promise.all(
    target.ports.map((port, index) =>
      new PusherServer({
        appId: target.appId,
        key: target.key,
        secret: target.secret,
        host: '127.0.0.1',
        port: String(port),
        useTLS: false,
      }).trigger(channels, PRESENCE_CHANGED_EVENT, {
        user_id: publishMarker(index),
        online: true,
      }),
    ),
  );
  const expected = receivers.length * target.ports.length;
  const arrivals: PresenceArrival[] = [];
  const started = performance.now();
  while (arrivals.length < expected && performance.now() - started < ARRIVAL_LIMIT_MS) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    arrivals.push(...(await target.takeArrivals()));
  }
  await new Promise((resolve) => setTimeout(resolve, EXTRA_COPY_WAIT_MS));
  arrivals.push(...(await target.takeArrivals()));
  return tallyMultiChannel(arrivals, receivers, target.ports.length);
};
