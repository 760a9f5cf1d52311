import { MAX_TIMESTAMP_SKEW_SECONDS } from './trigger-verify.js';

/**
 * Replayed Pusher HTTP API requests: the signatures already used, remembered while their
 * timestamp is still accepted (by this process, or shared through Redis).
 */

/**
 * The signature covers the method, path, key, timestamp and body_md5, so the same signature means the
 * same request: an exact replay. A request is acceptable until its timestamp is 600 s old, so its
 * signature is remembered until then (plus a second for rounding).
 */
export const signatureExpiresAtMs = (timestampSeconds: number): number =>
  (timestampSeconds + MAX_TIMESTAMP_SKEW_SECONDS + 1) * 1000;

export const REPLAY_MESSAGE =
  'Replayed request: this signature was already used. Sign every request anew.';

/** Default cap on the signatures one instance remembers (about 130 bytes each). */
export const DEFAULT_MAX_REMEMBERED_SIGNATURES = 100_000;

/** `fresh`: first use, now remembered; `replay`: seen before; `full`: cannot remember more now. */
export type ClaimResult = 'fresh' | 'replay' | { full: true; retryAfterSeconds: number };

/** Where the signatures already used are remembered (this process, or shared through Redis). */
export interface SignatureMemory {
  /** Remembers a signature until `expiresAtMs`, unless it is already remembered. */
  claim(signature: string, expiresAtMs: number, nowMs?: number): Promise<ClaimResult>;
  /** Forgets a signature (its request was not carried out, so sending it again is no replay). */
  release(signature: string): Promise<void>;
}

/**
 * The signatures seen by this process while they are within the timestamp window. Memory is
 * bounded: expired entries are pruned (every minute, and whenever the cap is reached), and at the
 * cap a new signature is refused (429) rather than an old one forgotten, which would let it be
 * replayed.
 */
export class SeenSignatures implements SignatureMemory {
  private readonly entries = new Map<string, number>();
  private readonly maxEntries: number;
  private readonly now: () => number;
  private nextPruneAt = 0;

  constructor(options: { maxEntries?: number; now?: () => number } = {}) {
    this.maxEntries = options.maxEntries ?? DEFAULT_MAX_REMEMBERED_SIGNATURES;
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  async claim(signature: string, expiresAtMs: number, nowMs = this.now()): Promise<ClaimResult> {
    return this.claimNow(signature, expiresAtMs, nowMs);
  }

  /** The synchronous claim: two identical requests racing each other cannot both be fresh. */
  claimNow(signature: string, expiresAtMs: number, nowMs = this.now()): ClaimResult {
    const known = this.entries.get(signature);
    if (known !== undefined && known > nowMs) return 'replay';
    if (nowMs >= this.nextPruneAt || this.entries.size >= this.maxEntries) {
      const earliest = this.prune(nowMs);
      if (this.entries.size >= this.maxEntries) {
        return { full: true, retryAfterSeconds: Math.max(1, Math.ceil((earliest - nowMs) / 1000)) };
      }
    }
    this.entries.set(signature, expiresAtMs);
    return 'fresh';
  }

  async release(signature: string): Promise<void> {
    this.entries.delete(signature);
  }

  /** Drops the expired entries; returns the earliest expiry left (Infinity when none). */
  private prune(nowMs: number): number {
    this.nextPruneAt = nowMs + 60_000;
    let earliest = Number.POSITIVE_INFINITY;
    for (const [signature, expiresAt] of this.entries) {
      if (expiresAt <= nowMs) this.entries.delete(signature);
      else if (expiresAt < earliest) earliest = expiresAt;
    }
    return earliest;
  }
}

/** What a shared store (Redis) offers: set a key only if absent, with an expiry; delete a key. */
export interface OnceStore {
  /** True when the key was absent and is now set (Redis `SET key 1 PX ttl NX`). */
  setOnce(key: string, ttlMs: number): Promise<boolean>;
  forget(key: string): Promise<void>;
}

/**
 * Signatures remembered by this process and in a store every instance shares, so that a request
 * replayed against another instance is refused too. The local memory answers same-instance replays
 * without a round trip; when the shared store cannot be reached the claim fails (the caller answers
 * 503, as the delivery through Redis would fail anyway) and the local entry is dropped so a retry
 * can go through.
 */
export const sharedSignatureMemory = (
  local: SeenSignatures,
  shared: OnceStore,
  keyPrefix: string,
): SignatureMemory => ({
  claim: async (signature, expiresAtMs, nowMs = Date.now()) => {
    const result = local.claimNow(signature, expiresAtMs, nowMs);
    if (result !== 'fresh') return result;
    let first: boolean;
    try {
      first = await shared.setOnce(
        `${keyPrefix}${signature}`,
        Math.max(1_000, expiresAtMs - nowMs),
      );
    } catch (error) {
      await local.release(signature);
      throw error;
    }
    // The shared store is the authority: locally, remember only what this instance claimed.
    if (!first) await local.release(signature);
    return first ? 'fresh' : 'replay';
  },
  release: async (signature) => {
    await local.release(signature);
    await shared.forget(`${keyPrefix}${signature}`);
  },
});
