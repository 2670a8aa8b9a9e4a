// Bounds how often one issuer is asked for its keys on behalf of requests: a token bucket (burst,
// then one per interval), so a flood of tokens with unknown `kid`s cannot hammer the issuer.
export const DEFAULT_REFRESH_BURST = 5;
export const DEFAULT_REFRESH_INTERVAL_MS = 10_000;

export class RefreshLimiter {
  #tokens: number;
  #last: number;
  constructor(readonly burst = DEFAULT_REFRESH_BURST, readonly intervalMs = DEFAULT_REFRESH_INTERVAL_MS, readonly now: () => number = Date.now) {
    this.#tokens = burst;
    this.#last = now();
  }

  /** Takes one refresh if one is available. */
  tryTake(): boolean {
    const t = this.now();
    const refill = Math.floor((t - this.#last) / this.intervalMs);
    if (refill > 0) {
      this.#tokens = Math.min(this.burst, this.#tokens + refill);
      this.#last += refill * this.intervalMs;
    }
    if (this.#tokens === this.burst) this.#last = t;
    if (this.#tokens <= 0) return false;
    this.#tokens--;
    return true;
  }
}
