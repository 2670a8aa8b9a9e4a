// A token bucket (golang.org/x/time/rate as client-go uses it): `qps` tokens a second, at most
// `burst` saved up. wait() resolves when a token is taken; waiters are served in order.
import { sleep, sleepUnlessAborted } from '../abort-wait.js';

export class TokenBucket {
  #tokens: number;
  #last: number;
  #tail: Promise<void> = Promise.resolve();
  constructor(readonly qps: number, readonly burst: number, private readonly now: () => number = () => performance.now()) {
    if (!(qps > 0) || !(burst >= 1)) throw new RangeError(`token bucket needs qps > 0 and burst >= 1 (got ${qps}, ${burst})`);
    this.#tokens = burst;
    this.#last = now();
  }

  #refill(): void {
    const t = this.now();
    this.#tokens = Math.min(this.burst, this.#tokens + ((t - this.#last) / 1000) * this.qps);
    this.#last = t;
  }

  /** Takes a token now if one is there (for rate limiters that compute a delay instead of waiting). */
  reserve(): number {
    this.#refill();
    this.#tokens -= 1;
    return this.#tokens >= 0 ? 0 : (-this.#tokens / this.qps) * 1000;
  }

  wait(signal?: AbortSignal): Promise<void> {
    const turn = this.#tail.then(() => {
      const delay = this.reserve();
      if (delay <= 0) return undefined;
      return signal ? sleepUnlessAborted(delay, signal) : sleep(delay);
    });
    this.#tail = turn.catch(() => undefined);
    return turn;
  }
}
