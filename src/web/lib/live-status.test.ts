import { createLiveStatusTracker, type LiveStatus } from './live-status.js';

const setup = () => {
  const statuses: LiveStatus[] = [];
  const retryNow = vi.fn();
  const onReconnected = vi.fn();
  const tracker = createLiveStatusTracker({
    retryNow,
    onStatus: (status) => statuses.push(status),
    onReconnected,
  });
  return { tracker, statuses, retryNow, onReconnected };
};

describe('live status (pusher-js connection states)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('is "connecting" until the first connection, which is not a reconnect', () => {
    const { tracker, statuses, onReconnected } = setup();
    ['initialized', 'connecting', 'unavailable'].forEach(tracker.onState);
    expect(tracker.status()).toBe('connecting');
    tracker.onState('connected');
    expect(statuses).toEqual(['connected']);
    expect(onReconnected).not.toHaveBeenCalled();
  });

  it('says "reconnecting" after a drop and reports the reconnection once', () => {
    const { tracker, statuses, onReconnected } = setup();
    tracker.onState('connected');
    ['connecting', 'unavailable', 'connecting'].forEach(tracker.onState);
    expect(tracker.status()).toBe('reconnecting');
    tracker.onState('connected');
    tracker.onState('connected');
    expect(statuses).toEqual(['connected', 'reconnecting', 'connected']);
    expect(onReconnected).toHaveBeenCalledTimes(1);
  });

  it('asks for a fresh attempt within 5 s of a drop, and at least every 5 s after that', () => {
    const { tracker, retryNow } = setup();
    tracker.onState('connected');
    tracker.onState('unavailable');
    vi.advanceTimersByTime(1_000);
    expect(retryNow).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(2_000 + 3_000);
    expect(retryNow).toHaveBeenCalledTimes(3);
    for (let more = 1; more <= 10; more += 1) {
      vi.advanceTimersByTime(5_000);
      expect(retryNow).toHaveBeenCalledTimes(3 + more);
    }
    tracker.onState('connected');
    vi.advanceTimersByTime(60_000);
    expect(retryNow).toHaveBeenCalledTimes(13);
  });

  it('retries at once when nudged (online again, tab visible), and not while connected', () => {
    const { tracker, retryNow } = setup();
    tracker.onState('connected');
    tracker.nudge();
    expect(retryNow).not.toHaveBeenCalled();
    tracker.onState('disconnected');
    tracker.nudge();
    expect(retryNow).toHaveBeenCalledTimes(1);
  });

  it('ignores the states its own retry passes through, and stops for good', () => {
    const statuses: LiveStatus[] = [];
    const tracker = createLiveStatusTracker({
      retryNow: () => ['disconnected', 'connecting'].forEach((state) => tracker.onState(state)),
      onStatus: (status) => statuses.push(status),
      onReconnected: () => undefined,
    });
    tracker.onState('connected');
    tracker.onState('unavailable');
    tracker.nudge();
    expect(statuses).toEqual(['connected', 'reconnecting']);
    tracker.stop();
    tracker.onState('connected');
    expect(tracker.status()).toBe('reconnecting');
  });

  it('says "reconnecting" as soon as the browser is offline, closes the socket, and tries again only once online', () => {
    let online = true;
    const statuses: LiveStatus[] = [];
    const retryNow = vi.fn();
    const onReconnected = vi.fn();
    const tracker = createLiveStatusTracker({
      retryNow,
      dropNow: () => tracker.onState('disconnected'),
      isOnline: () => online,
      onStatus: (status) => statuses.push(status),
      onReconnected,
    });
    tracker.onState('connected');
    online = false;
    tracker.offline();
    expect(tracker.status()).toBe('reconnecting');
    vi.advanceTimersByTime(30_000);
    tracker.nudge(); // the tab became visible, still offline
    expect(retryNow).not.toHaveBeenCalled();
    online = true;
    tracker.nudge(); // the "online" event
    expect(retryNow).toHaveBeenCalledTimes(1);
    tracker.onState('connected');
    expect(statuses).toEqual(['connected', 'reconnecting', 'connected']);
    expect(onReconnected).toHaveBeenCalledTimes(1);
  });
});
