import {
  createLiveStatusTracker,
  DROP_NOTICE_MS,
  FIRST_CONNECTION_NOTICE_MS,
  type LiveStatus,
} from './live-status.js';

const setup = () => {
  const statuses: LiveStatus[] = [];
  const retryNow = vi.fn();
  const tracker = createLiveStatusTracker({
    retryNow,
    onStatus: (status) => statuses.push(status),
  });
  return { tracker, statuses, retryNow };
};

describe('live status (pusher-js connection states)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('is "connecting" until the first connection, which is not a reconnect', () => {
    const { tracker, statuses } = setup();
    ['initialized', 'connecting', 'unavailable'].forEach(tracker.onState);
    expect(tracker.status()).toBe('connecting');
    tracker.onState('connected');
    expect(statuses).toEqual(['connected']);
  });

  it('says "reconnecting" after a drop not back soon and "connected" once back', () => {
    const { tracker, statuses } = setup();
    tracker.onState('connected');
    ['connecting', 'unavailable', 'connecting'].forEach(tracker.onState);
    vi.advanceTimersByTime(DROP_NOTICE_MS);
    expect(tracker.status()).toBe('reconnecting');
    tracker.onState('connected');
    tracker.onState('connected');
    expect(statuses).toEqual(['connected', 'reconnecting', 'connected']);
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
    });
    tracker.onState('connected');
    tracker.onState('unavailable');
    tracker.nudge();
    vi.advanceTimersByTime(DROP_NOTICE_MS);
    expect(statuses).toEqual(['connected', 'reconnecting']);
    tracker.stop();
    tracker.onState('connected');
    expect(tracker.status()).toBe('reconnecting');
  });

  it('says "reconnecting" as soon as the browser is offline, closes the socket, and tries again only once online', () => {
    let online = true;
    const statuses: LiveStatus[] = [];
    const retryNow = vi.fn();
    const tracker = createLiveStatusTracker({
      retryNow,
      dropNow: () => tracker.onState('disconnected'),
      isOnline: () => online,
      onStatus: (status) => statuses.push(status),
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
  });

  it('does not say a drop that is back at once (a server closing sockets in a restart, 4200)', () => {
    const { tracker, statuses } = setup();
    tracker.onState('connected');
    tracker.onState('connecting');
    vi.advanceTimersByTime(DROP_NOTICE_MS - 1);
    expect(tracker.status()).toBe('connected');
    tracker.onState('connected');
    vi.advanceTimersByTime(60_000);
    expect(statuses).toEqual(['connected']);
  });

  it('says "reconnecting" once a drop has lasted the notice delay, not before', () => {
    const { tracker, statuses } = setup();
    tracker.onState('connected');
    tracker.onState('connecting');
    vi.advanceTimersByTime(DROP_NOTICE_MS - 1);
    expect(statuses).toEqual(['connected']);
    tracker.onState('unavailable'); // more states of the same drop do not start the wait again
    vi.advanceTimersByTime(1);
    expect(statuses).toEqual(['connected', 'reconnecting']);
  });

  it('says "reconnecting" when the first connection is not made within a few seconds', () => {
    const { tracker, statuses } = setup();
    ['initialized', 'connecting'].forEach(tracker.onState);
    vi.advanceTimersByTime(FIRST_CONNECTION_NOTICE_MS - 1);
    expect(tracker.status()).toBe('connecting');
    tracker.onState('unavailable');
    vi.advanceTimersByTime(1);
    expect(tracker.status()).toBe('reconnecting');
    tracker.onState('connected');
    expect(statuses).toEqual(['reconnecting', 'connected']);
    // it was never live before: nothing to catch up on
  });

  it('says "reconnecting" at once when pusher-js gives up on the first connection', () => {
    const { tracker } = setup();
    ['initialized', 'connecting', 'failed'].forEach(tracker.onState);
    expect(tracker.status()).toBe('reconnecting');
  });

  it('a first connection made in time is never said', () => {
    const { tracker, statuses } = setup();
    tracker.onState('connecting');
    tracker.onState('connected');
    vi.advanceTimersByTime(60_000);
    expect(statuses).toEqual(['connected']);
  });
});
