// Upstream's WithWatchTerminationDuringShutdown and its RateLimitedSafeWaitGroup, installed with
// --shutdown-watch-termination-grace-period > 0. Every watch is counted while it runs and told when
// the server stops accepting requests (NotAcceptingNewRequest): it ends then, cleanly, so its
// client re-establishes it on another server, and the drain does not wait on it until
// --request-timeout. The watches end no faster than max(count / grace, 200) a second (one token
// at a time), so their clients do not all come back at once; past the grace period they end
// unpaced. A watch that arrives once the wait has begun is answered 503 "apiserver is shutting down".
import { setMaxListeners } from 'node:events';
import type Koa from 'koa';
import { whenAborted } from '../abort-wait.js';
import { TokenBucket } from '../client/token-bucket.js';
import { timeoutSignal } from '../long-timeout.js';
import type { RequestInfo } from './request-info.js';
import { writeShuttingDown } from './wait-group.js';

/** What a watch is given: when to end, and the paced release of its end. */
export interface WatchTermination {
  /** Aborts at NotAcceptingNewRequest. */
  readonly shuttingDown: AbortSignal;
  /** Resolves when the watch may end its response (at once before the wait); idempotent. */
  done(): Promise<void>;
}

/** Floor of the release rate: the watches are to be gone as soon as may be. */
const MIN_QPS = 200;

export interface WatchDrainResult { readonly before: number; readonly after: number; readonly error?: string }

export class WatchWaitGroup {
  readonly #shuttingDown = new AbortController();
  /** Watches not yet ended (upstream's count): `after` reports it. */
  #count = 0;
  /** Watches not yet released by the limiter (upstream's wg): the wait ends when none is left. */
  #pending = 0;
  #limiter: TokenBucket | undefined;
  #deadline: AbortSignal | undefined;
  #idle: (() => void) | undefined;

  constructor() {
    // Every open watch listens for it; more than ten is normal, not a leak.
    setMaxListeners(0, this.#shuttingDown.signal);
  }

  /** Counts a watch in; undefined once the wait has begun. */
  add(): WatchTermination | undefined {
    if (this.#shuttingDown.signal.aborted) return undefined;
    this.#count++;
    this.#pending++;
    let released: Promise<void> | undefined;
    return {
      shuttingDown: this.#shuttingDown.signal,
      done: () => (released ??= this.#done()),
    };
  }

  async #done(): Promise<void> {
    this.#count--;
    const limiter = this.#limiter;
    try {
      // Past the grace period the wait is cut short; the watch ends at once.
      if (limiter) await limiter.wait(this.#deadline).catch(() => undefined);
    } finally {
      if (--this.#pending === 0) this.#idle?.();
    }
  }

  /** Ends every watch, paced over `graceMs`; resolves when all have ended or the grace period is over. */
  async wait(graceMs: number): Promise<WatchDrainResult> {
    const before = this.#count;
    this.#limiter = new TokenBucket(Math.max(before / (graceMs / 1000), MIN_QPS), 1);
    const deadline = timeoutSignal(graceMs);
    this.#deadline = deadline;
    const idle = new Promise<void>((resolve) => { this.#idle = resolve; });
    this.#shuttingDown.abort();
    if (this.#pending > 0) {
      await Promise.race([idle, whenAborted(deadline)]);
    }
    return { before, after: this.#count, ...(deadline.aborted && this.#pending > 0 ? { error: 'context deadline exceeded' } : {}) };
  }
}

/** Middleware after request info, before the non-long-running wait group, as upstream orders it. */
export function withWatchTermination(wg: WatchWaitGroup): Koa.Middleware<{ info: RequestInfo; watchTermination?: WatchTermination }> {
  return async (ctx, next) => {
    if (ctx.state.info.verb !== 'watch') return next();
    const termination = wg.add();
    if (!termination) return writeShuttingDown(ctx as unknown as Koa.Context);
    ctx.state.watchTermination = termination;
    try {
      await next();
    } finally {
      await termination.done();
    }
  };
}
