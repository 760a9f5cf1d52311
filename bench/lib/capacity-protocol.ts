/**
 * Requests and answers between the capacity scenario and its load generators
 * (bench/lib/capacity-worker.ts), apart from the worker so the parent can import them without
 * starting a worker.
 */
import type { CapacityPopulationOptions } from '../../test-support/capacity-population.js';

export interface CapacityBehaviour {
  /** Mean gap between two conversation opens of one user (ms). */
  openMeanMs: number;
  /** Mean gap between two sends of one user (ms). */
  sendMeanMs: number;
  /** Mean gap between two reloads of a user who reloads (ms). */
  reloadMeanMs: number;
  /** Share of the users who reload (drawn per user). */
  reloadShare: number;
  /** Typing → send pause, drawn uniformly (ms). */
  typingMs: [number, number];
}

export interface CapacityInit {
  workerIndex: number;
  workers: number;
  population: CapacityPopulationOptions;
  tokenSecret: string;
  httpUrl: string;
  wsUrl: string;
  /** Query string of every messaging call (`key=…&token=`). */
  query: string;
  behaviour: CapacityBehaviour;
  /** Seed of the users' schedules. */
  seed: number;
  requestTimeoutMs: number;
}

export interface AddUsersRequest {
  /** Users with an index below this are on the site once this step's arrivals are in. */
  activeUsers: number;
  /** This step's new users: indexes [from, to) (this worker takes its share). */
  from: number;
  to: number;
  /** Arrivals per second for this worker. */
  ratePerSecond: number;
  /** Arrivals under way at most (page loads and subscriptions not yet done). */
  maxInFlight: number;
  /** Once an arrival is this late, the step's remaining users do not come (the step has failed). */
  behindLimitMs: number;
  timeoutMs: number;
}

export interface AddUsersResult {
  requested: number;
  arrived: number;
  failed: number;
  /** Not started: the arrivals fell more than `behindLimitMs` behind. */
  notStarted: number;
  elapsedMs: number;
}

/** A gap from when a user's arrival was asked for until it subscribed (open: it never arrived). */
export const GAP_ARRIVAL = 0;
/** A gap of a user who was on: reloading, or its socket closed by the server. */
export const GAP_AWAY = 1;
/** Numbers per gap in `CollectResult.gaps`. */
export const GAP_FIELDS = 4;

/** The names of the timed calls and waits, each an HDR histogram (µs). */
export const TIMED = [
  'pageLoad',
  'pageLoadArrival',
  'pageLoadReload',
  'open',
  'typing',
  'send',
  'seen',
  'connect',
  'deliver',
] as const;
export type Timed = (typeof TIMED)[number];

export interface CollectResult {
  histograms: Record<Timed, string>;
  counts: {
    arrivals: number;
    reloads: number;
    opens: number;
    typing: number;
    sends: number;
    sendsAccepted: number;
    seen: number;
    /** Scheduled actions skipped because the user was reloading at the time. */
    skipped: number;
    /** ChatMessage frames for the socket's user as receiver: first copies, and further copies. */
    received: number;
    duplicates: number;
    /**
     * Copies at the very socket the send named in X-Socket-ID (the server must leave it out), and at
     * a socket of neither party: errors.
     */
    echoes: number;
    misdelivered: number;
    /**
     * Copies at another socket of the sender (it reloaded around its send): a send goes to the
     * sender's channel too, except to the socket named in X-Socket-ID. Not an error.
     */
    echoesToNewerSocket: number;
    /** Other live frames heard (PresenceChanged, Typing, MessagesSeen). */
    presenceFrames: number;
    typingFrames: number;
    seenFrames: number;
    /** Sockets the server closed. */
    drops: number;
    connectFailures: number;
  };
  /** Non-2xx answers by "call status", and failed requests by "call: error". */
  statuses: Record<string, number>;
  failures: Record<string, number>;
  errorSamples: string[];
  /** Accepted sends, flat: [seq, receiver index, sent at (epoch ms), answered at (epoch ms)]… */
  sent: number[];
  /** Sequence numbers received (first copies) by this worker's users. */
  receivedSeqs: number[];
  /**
   * Times a user of this worker could not hear live events, flat: [index, from, to, kind]… (to = -1:
   * still; kind: `GAP_ARRIVAL` or `GAP_AWAY`).
   */
  gaps: number[];
  liveUsers: number;
  openSockets: number;
  /**
   * Calls started and not answered (nor failed) when collected: after a step's drain, calls whose
   * answer (or error) no figure of the step holds.
   */
  callsInFlight: number;
  /** Actions (open, send, reload, mark seen) started and not finished when collected. */
  actionsInFlight: number;
  /** This process's event-loop delay since the last collect (ms): p99 and max. */
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
}

/** What the warm-up before the first step did: its calls, and those not answered with 2xx. */
export interface WarmupResult {
  calls: number;
  /** Non-2xx answers and calls that failed or timed out. */
  failed: number;
  /** The first few failures (`call status` or `call: error`). */
  samples: string[];
}

/** Every count at zero (a worker's start, and tests). */
export const emptyCounts = (): CollectResult['counts'] => ({
  arrivals: 0,
  reloads: 0,
  opens: 0,
  typing: 0,
  sends: 0,
  sendsAccepted: 0,
  seen: 0,
  skipped: 0,
  received: 0,
  duplicates: 0,
  echoes: 0,
  misdelivered: 0,
  echoesToNewerSocket: 0,
  presenceFrames: 0,
  typingFrames: 0,
  seenFrames: 0,
  drops: 0,
  connectFailures: 0,
});
