// The reflector's backoff (client-go: wait.NewExponentialBackoffManager(800ms, 30s, 2m, 2.0, 1.0)):
// the wait doubles from 800 ms up to 30 s, each wait jittered up to twice itself, and starts over
// only after two minutes without a failure. The jitter spreads clients that failed together (every
// node agent when their API server restarts) over the next interval instead of all at once.

export interface BackoffOptions {
  readonly initialMs?: number;
  readonly capMs?: number;
  /** This long without a failure starts the backoff over. */
  readonly resetMs?: number;
  readonly factor?: number;
  /** Each wait is d + random() * jitter * d. */
  readonly jitter?: number;
  readonly now?: () => number;
  readonly random?: () => number;
}

export class ExponentialBackoff {
  readonly #o: Required<BackoffOptions>;
  #duration: number;
  #lastFailure = -Infinity;

  constructor(o: BackoffOptions = {}) {
    this.#o = {
      initialMs: 800, capMs: 30_000, resetMs: 2 * 60_000, factor: 2, jitter: 1,
      now: () => performance.now(), random: Math.random, ...o,
    };
    this.#duration = this.#o.initialMs;
  }

  /** The wait after a failure now (ms, whole). */
  next(): number {
    const o = this.#o;
    const now = o.now();
    if (now - this.#lastFailure > o.resetMs) this.#duration = o.initialMs;
    this.#lastFailure = now;
    const d = this.#duration;
    this.#duration = Math.min(d * o.factor, o.capMs);
    return Math.floor(d + o.random() * o.jitter * d);
  }
}
