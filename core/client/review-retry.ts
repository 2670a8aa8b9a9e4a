// One review request to the API server with upstream's webhook retries
// (k8s.io/apiserver/pkg/util/webhook: DefaultAuthWebhookRetryBackoff, DefaultShouldRetry): a
// connection reset, 500 InternalError, 504 Timeout, 429 TooManyRequests, or any answer with
// Retry-After is tried again after 500ms, ×1.5 each time, jitter 0.2, at most 5 tries; the whole
// review is bounded by one timeout where the caller has one (the token review's 10s). What fails
// is what upstream's WithExponentialBackoff returns: the last attempt's error, also when the
// timeout ends a wait between attempts; an attempt the timeout cut short fails as client-go's
// does, `Post "<url>": context deadline exceeded`.
import { sleep, sleepUnlessAborted } from '../abort-wait.js';
import { isApiError } from './rest-client.js';

export interface Backoff { readonly initialMs: number; readonly factor: number; readonly jitter: number; readonly steps: number }

export const DEFAULT_BACKOFF: Backoff = { initialMs: 500, factor: 1.5, jitter: 0.2, steps: 5 };
export const REVIEW_TIMEOUT_MS = 10_000;

export function shouldRetry(e: unknown): boolean {
  if (isApiError(e)) {
    const body = e.body as { details?: { retryAfterSeconds?: number } } | undefined;
    return e.code === 500 || e.code === 504 || e.code === 429 || (body?.details?.retryAfterSeconds ?? 0) > 0;
  }
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ECONNRESET' || code === 'ERR_HTTP2_STREAM_ERROR';
}

/** context.DeadlineExceeded as the request the deadline cut short reports it (its url and method kept). */
function deadlineExceeded(cut: unknown): Error {
  const { url, method } = (cut ?? {}) as { url?: unknown; method?: unknown };
  const err = new Error('context deadline exceeded', { cause: cut });
  return typeof url === 'string' && typeof method === 'string' ? Object.assign(err, { url, method }) : err;
}

/**
 * Runs `attempt` until it succeeds, fails for good, runs out of tries, or the timeout passes;
 * `timeoutMs` 0: no timeout over the whole (each request bounded by its client's own).
 */
export async function withRetry<T>(attempt: (signal: AbortSignal | undefined) => Promise<T>, o: { backoff?: Backoff; timeoutMs?: number } = {}): Promise<T> {
  const b = o.backoff ?? DEFAULT_BACKOFF;
  const timeoutMs = o.timeoutMs ?? REVIEW_TIMEOUT_MS;
  const signal = timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined;
  let delay = b.initialMs;
  for (let n = 1; ; n++) {
    let last: unknown;
    try {
      return await attempt(signal);
    } catch (e) {
      if (signal?.aborted) throw deadlineExceeded(e);
      if (n >= b.steps || !shouldRetry(e)) throw e;
      last = e;
    }
    const wait = delay + delay * b.jitter * Math.random();
    if (signal) {
      try { await sleepUnlessAborted(wait, signal); } catch { throw last; }
    } else {
      await sleep(wait);
    }
    delay *= b.factor;
  }
}
