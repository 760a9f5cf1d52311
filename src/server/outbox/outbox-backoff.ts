export interface Backoff {
  /** The delay after the first failure; it doubles with each further one. */
  baseMs: number;
  capMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { baseMs: 30_000, capMs: 3_600_000 };

/**
 * How long to wait after the `attempts`-th failure: base · 2^(attempts−1), capped, with "equal
 * jitter" (between half and all of it) so that tasks failing together do not retry together.
 */
export const backoffDelay = (
  attempts: number,
  backoff: Backoff = DEFAULT_BACKOFF,
  random: () => number = Math.random,
): number => {
  const exponential = Math.min(
    backoff.capMs,
    backoff.baseMs * 2 ** Math.min(Math.max(attempts - 1, 0), 30),
  );
  return Math.round(exponential / 2 + (exponential / 2) * random());
};
