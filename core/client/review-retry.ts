// One review request to the API server with upstream's webhook retries
// (k8s.io/apiserver/pkg/util/webhook: DefaultAuthWebhookRetryBackoff, DefaultShouldRetry): a
// connection reset, 500 InternalError, 504 Timeout, 429 TooManyRequests, or any answer with
// Retry-After is tried again after 500ms, ×1.5 each time, jitter 0.2, at most 5 tries; the whole
// review is bounded by one timeout (the delegating clients' 10s).
import { sleepUnlessAborted } from '../abort-wait.js';
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

/** Runs `attempt` until it succeeds, fails for good, runs out of tries, or the timeout passes. */
export async function withRetry<T>(attempt: (signal: AbortSignal) => Promise<T>, o: { backoff?: Backoff; timeoutMs?: number } = {}): Promise<T> {
  const b = o.backoff ?? DEFAULT_BACKOFF;
  const timeoutMs = o.timeoutMs ?? REVIEW_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  let delay = b.initialMs;
  for (let n = 1; ; n++) {
    try {
      return await attempt(signal);
    } catch (e) {
      if (signal.aborted) throw new Error(`no answer within ${timeoutMs}ms`);
      if (n >= b.steps || !shouldRetry(e)) throw e;
    }
    try {
      await sleepUnlessAborted(delay + delay * b.jitter * Math.random(), signal);
    } catch {
      throw new Error(`no answer within ${timeoutMs}ms`);
    }
    delay *= b.factor;
  }
}
