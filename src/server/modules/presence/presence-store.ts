/**
 * Who is online, over every instance. An instance "holds" a user while that user's own channel has
 * a socket on it (and for the grace after the last one closed: the service decides when to let go).
 * A user is online while at least one instance holds them.
 */
export interface PresenceStore {
  /** This instance holds the user now; true when nobody held them before (they came online). */
  hold(userId: number): Promise<boolean>;
  /** This instance lets the user go; true when nobody holds them any more (they went offline). */
  release(userId: number): Promise<boolean>;
  /** The users among `ids` whom some instance holds. */
  onlineAmong(ids: readonly number[]): Promise<Set<number>>;
  /**
   * Users held by instances that stopped without letting them go (crashed): released now, and
   * returned when nobody else holds them (they went offline). The memory store has none.
   */
  sweep(): Promise<number[]>;
  /** A clean stop: every hold of this instance is let go; the users who went offline. */
  releaseAllHeldHere(): Promise<number[]>;
  /**
   * Called after the holds were written again following an outage (Redis store), with the users
   * that made online again (a sweep had taken them offline meanwhile).
   */
  onRestored?(listener: (cameBack: number[]) => void): void;
  /**
   * Hosted Pusher: its webhook says the user's channel has sockets there. They are held by one
   * holder shared by every instance (a webhook may land on any of them), and a release pending
   * from an earlier `leaveHosted` is called off. True when nobody held them before.
   */
  holdHosted(userId: number, at: number): Promise<boolean>;
  /**
   * Hosted Pusher: the user's channel lost its last socket there at `at` (ms, the hosted service's
   * time); let go at `releaseAt` (ms). An event older than the user's last one changes nothing.
   */
  leaveHosted(userId: number, at: number, releaseAt: number): Promise<void>;
  /**
   * The hosted releases due by `now` (ms), done at once by whichever instance asks first: the users
   * who went offline, each with the moment their release was due.
   */
  releaseDueHosted(now: number): Promise<{ userId: number; releaseAt: number }[]>;
  close(): Promise<void>;
}
