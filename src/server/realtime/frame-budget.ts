/**
 * Token bucket of one socket's incoming frames: `burst` at once, refilled at `perSecond`.
 * Times are milliseconds of a monotonic clock (`performance.now()`), so a clock change does not
 * empty or fill it.
 */
export class FrameBudget {
  private tokens: number;
  private refilledAt: number;
  /** Frames refused since the last one let through. */
  droppedInRow = 0;

  constructor(
    private readonly burst: number,
    private readonly perSecond: number,
    now = performance.now(),
  ) {
    this.tokens = burst;
    this.refilledAt = now;
  }

  /** Takes a token for one frame; false when the frame is over the rate. */
  take(now = performance.now()): boolean {
    this.tokens = Math.min(
      this.burst,
      this.tokens + ((now - this.refilledAt) / 1000) * this.perSecond,
    );
    this.refilledAt = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      this.droppedInRow = 0;
      return true;
    }
    this.droppedInRow += 1;
    return false;
  }
}
