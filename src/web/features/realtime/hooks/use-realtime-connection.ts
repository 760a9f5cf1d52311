import { useEffect, useState } from 'react';
import type { RealtimeConnection } from '../../../lib/realtime.js';
import { useServices } from '../../../lib/services.js';

/**
 * Opens the live connection once the viewer is known (after the first render, so Echo and
 * pusher-js load lazily) and makes the API client send its socket id as `X-Socket-ID`.
 */
export const useRealtimeConnection = (userId: number | undefined): RealtimeConnection | null => {
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
