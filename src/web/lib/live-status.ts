/**
 * What the page says about its live connection, and how soon it tries again after a drop.
 *
 * pusher-js retries on its own but backs off to 15–30 s, so a page came back long after the server
 * did. While the connection is down this asks for a fresh attempt on a short schedule (1 s, 2 s, 3 s,
 * then every 5 s), and at once when the browser says it is online again or the tab becomes visible,
 * so the page is live again within 5 s of the server coming back.
 *
 * The page says it is offline only when it is worth saying: at once when the browser says it is
 * offline, but a dropped socket only when it is not back within `DROP_NOTICE_MS` (a server closing
 * sockets in a rolling restart, 4200, is answered by an immediate reconnection that nobody needs to
 * see), and a first connection that is still not made after `FIRST_CONNECTION_NOTICE_MS`.
 */

/**
 * What the page shows. `connecting`: the first connection is being made (not for long yet);
 * `connected`: live, or dropped only a moment ago; `reconnecting`: not live, and long enough that
 * the page says so ("Offline — reconnecting…", no one claimed online).
 */
export type LiveStatus = 'connecting' | 'connected' | 'reconnecting';

/** Delays between fresh attempts while down (the last one repeats). */
export const RETRY_DELAYS_MS: readonly number[] = [1_000, 2_000, 3_000, 5_000];

/** A dropped socket is said only if it is not back within this. */
export const DROP_NOTICE_MS = 1_500;

/** A first connection not made within this is said. */
export const FIRST_CONNECTION_NOTICE_MS = 5_000;

/** pusher-js connection states that mean the socket is (or was) gone. */
const DROPPED_STATES: ReadonlySet<string> = new Set([
  'unavailable',
  'disconnected',
  'connecting',
  'failed',
]);

export interface LiveStatusTrackerOptions {
  /** Starts a fresh connection attempt now (pusher-js: disconnect, then connect). */
  retryNow: () => void;
  /** Closes the connection without trying again (pusher-js: disconnect). */
  dropNow?: () => void;
  /** False while the browser says it is offline (`navigator.onLine`): attempts wait for it. */
  isOnline?: () => boolean;
  /** Called with each new status. */
  onStatus: (status: LiveStatus) => void;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

export interface LiveStatusTracker {
  /** Feed every pusher-js connection state here. */
  onState(state: string): void;
  /** The browser is online again or the tab became visible: try at once if down. */
  nudge(): void;
  /**
   * The browser says it is offline: the connection is taken as gone at once (its socket may linger
   * unanswered for half a minute, Chromium even holds its frames) and closed, so that coming back
   * is a fresh connection and the page catches up. No attempt is made while the browser is offline.
   */
  offline(): void;
  status(): LiveStatus;
  stop(): void;
}

export const createLiveStatusTracker = (options: LiveStatusTrackerOptions): LiveStatusTracker => {
  const setTimer = options.setTimer ?? ((run, ms) => setTimeout(run, ms));
  const clearTimer =
    options.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>));
  /** What the page shows (see `LiveStatus`). */
  let status: LiveStatus = 'connecting';
  let everConnected = false;
  /** The connection was live (or the browser went offline) and is not back: retries run. */
  let dropped = false;
  let attempt = 0;
  let timer: unknown = null;
  /** Until the page says it is down (a drop not back soon, a first connection not made soon). */
  let noticeTimer: unknown = null;
  let stopped = false;
  // A retry we asked for passes through "disconnected": that is not news.
  let retrying = false;

  const cancelTimer = () => {
    if (timer !== null) clearTimer(timer);
    timer = null;
  };
  const cancelNotice = () => {
    if (noticeTimer !== null) clearTimer(noticeTimer);
    noticeTimer = null;
  };
  const setStatus = (next: LiveStatus) => {
    if (next === status) return;
    status = next;
    options.onStatus(next);
  };
  /** Says "reconnecting" after `ms` unless the connection is made by then. */
  const noticeAfter = (ms: number) => {
    if (stopped || noticeTimer !== null || status === 'reconnecting') return;
    noticeTimer = setTimer(() => {
      noticeTimer = null;
      if (!stopped) setStatus('reconnecting');
    }, ms);
  };
  const isOnline = options.isOnline ?? (() => true);
  /** Runs a change of the connection we asked for: the states it passes through are not news. */
  const quietly = (change: () => void) => {
    retrying = true;
    try {
      change();
    } finally {
      retrying = false;
    }
  };
  const retry = () => {
    cancelTimer();
    if (stopped || !dropped) return;
    if (isOnline()) quietly(options.retryNow);
    schedule();
  };
  const schedule = () => {
    if (stopped || timer !== null) return;
    const delay = RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)] ?? 5_000;
    attempt += 1;
    timer = setTimer(() => {
      timer = null;
      retry();
    }, delay);
  };

  noticeAfter(FIRST_CONNECTION_NOTICE_MS);

  return {
    onState(state) {
      if (stopped) return;
      if (state === 'connected') {
        cancelTimer();
        cancelNotice();
        attempt = 0;
        dropped = false;
        everConnected = true;
        setStatus('connected');
        return;
      }
      if (!everConnected) {
        // pusher-js gave up on the first connection: no point waiting to say so
        if (state === 'failed') {
          cancelNotice();
          setStatus('reconnecting');
        }
        return;
      }
      if (retrying || !DROPPED_STATES.has(state)) return;
      dropped = true;
      noticeAfter(DROP_NOTICE_MS);
      schedule();
    },
    nudge() {
      if (dropped) retry();
    },
    offline() {
      if (stopped) return;
      cancelTimer();
      cancelNotice();
      dropped = true;
      setStatus('reconnecting');
      if (options.dropNow) quietly(options.dropNow);
      schedule();
    },
    status: () => status,
    stop() {
      stopped = true;
      cancelTimer();
      cancelNotice();
    },
  };
};
