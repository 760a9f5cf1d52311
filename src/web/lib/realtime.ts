import { createContext, useContext, useEffect, useRef, useState } from 'react';
import type { LiveStatus } from './live-status.js';
import type { ChannelEvents, RealtimeConnection } from './realtime-connection.js';
import { useServices } from './services.js';

/**
 * What a feature can listen to: the viewer's channel's events, and `CatchUp` after the first
 * confirmed subscription and after each reconnection (there is no event history: whatever was
 * missed meanwhile is fetched again, docs/decisions/010-refetch-on-resubscribe.md). A call whose
 * answer is an event's payload (a send answers with the sender's `ChatMessage`) publishes it too,
 * so that each cache is updated in one place.
 */
export interface LiveEventMap extends ChannelEvents {
  CatchUp: undefined;
}
export type LiveEventName = keyof LiveEventMap;
type Handler<N extends LiveEventName> = (event: LiveEventMap[N]) => void;

export interface LiveEvents {
  on: <N extends LiveEventName>(name: N, handler: Handler<N>) => () => void;
  publish: <N extends LiveEventName>(name: N, event: LiveEventMap[N]) => void;
}

export const createLiveEvents = (): LiveEvents => {
  const handlers = new Map<LiveEventName, Set<(event: never) => void>>();
  return {
    on: (name, handler) => {
      const set = handlers.get(name) ?? new Set();
      handlers.set(name, set);
      set.add(handler);
      return () => set.delete(handler);
    },
    publish: (name, event) =>
      handlers.get(name)?.forEach((handler) => (handler as Handler<typeof name>)(event)),
  };
};

export const LiveEventsContext = createContext<LiveEvents | null>(null);

const useLiveEvents = (): LiveEvents => {
  const live = useContext(LiveEventsContext);
  if (!live) throw new Error('live events are used outside <LiveEventsContext.Provider>');
  return live;
};

/** Calls `handler` (the latest one rendered) with every `name` event while mounted. */
export const useLiveEvent = <N extends LiveEventName>(name: N, handler: Handler<N>): void => {
  const live = useLiveEvents();
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => live.on(name, (event) => latest.current(event)), [live, name]);
};

/** Publishes an event to the page's listeners (an answer that carries what the event would). */
export const usePublishLiveEvent = (): LiveEvents['publish'] => useLiveEvents().publish;

/**
 * Opens the live connection once the viewer is known (after the first render, so Echo and
 * pusher-js load lazily) and makes the API client send its socket id as `X-Socket-ID`.
 */
const useRealtimeConnection = (userId: number | undefined): RealtimeConnection | null => {
  const { connectRealtime, config, setSocketIdSource } = useServices();
  const [connection, setConnection] = useState<RealtimeConnection | null>(null);

  useEffect(() => {
    if (userId === undefined) return;
    let cancelled = false;
    let opened: RealtimeConnection | null = null;
    connectRealtime(config.broadcaster)
      .then((connected) => {
        if (cancelled) {
          connected.disconnect();
          return;
        }
        opened = connected;
        setSocketIdSource(() => connected.socketId());
        setConnection(connected);
      })
      .catch((error: unknown) => console.error('Live updates are unavailable', error));
    return () => {
      cancelled = true;
      if (opened) {
        setSocketIdSource(null);
        opened.disconnect();
      }
      setConnection(null);
    };
  }, [userId, connectRealtime, config.broadcaster, setSocketIdSource]);

  return connection;
};

/**
 * The viewer's live connection: its events go to the features' `useLiveEvent` listeners (the
 * event names of src/shared/events.ts). Returns whether the page is live.
 */
export const useLiveConnection = (userId: number | undefined): LiveStatus => {
  const live = useLiveEvents();
  const connection = useRealtimeConnection(userId);

  useEffect(() => {
    if (!connection || userId === undefined) return;
    // anything sent between the first load (or the drop) and the subscription is caught up
    // once subscribed
    const stopListening = connection.listenForChatMessages(
      userId,
      (event) => live.publish('ChatMessage', event),
      () => live.publish('CatchUp', undefined),
    );
    const stopActivity = connection.listenForActivity(userId, {
      presence: (event) => live.publish('PresenceChanged', event),
      seen: (event) => live.publish('MessagesSeen', event),
      typing: (event) => live.publish('Typing', event),
      updated: (event) => live.publish('MessageUpdated', event),
    });
    return () => {
      stopListening();
      stopActivity();
    };
  }, [connection, userId, live]);

  const [status, setStatus] = useState<LiveStatus>('connecting');
  useEffect(() => {
    if (!connection) return;
    setStatus(connection.status());
    return connection.onStatusChange(setStatus);
  }, [connection]);
  return status;
};
