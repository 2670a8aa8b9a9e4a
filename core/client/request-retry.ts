// client-go's withRetry (rest/with_retry.go) for one request: up to 10 retries of an answer that
// asks for one (429 or 5xx with a Retry-After of whole seconds) after that many seconds, and of a
// GET that lost its connection (reset, or closed before the answer) after an artificial
// `Retry-After: 1`. Each retry takes a rate-limiter token again, as client-go's Before().
import type { IncomingHttpHeaders } from 'node:http';

/** client-go's NewRequest maxRetries. */
export const MAX_RETRIES = 10;

/** The Retry-After header as strconv.Atoi reads it (an HTTP date is not a number of seconds). */
export function retryAfterSeconds(headers: IncomingHttpHeaders): number | undefined {
  const h = headers['retry-after'];
  const v = Array.isArray(h) ? h[0] : h;
  return v !== undefined && /^[+-]?\d+$/.test(v) ? Number(v) : undefined;
}

/** checkWait: seconds to wait before retrying an answer, or undefined when it is final. */
export function answerRetryWait(code: number, headers: IncomingHttpHeaders): number | undefined {
  return code === 429 || code >= 500 ? retryAfterSeconds(headers) : undefined;
}

/**
 * A connection that broke before the answer (apimachinery's IsConnectionReset and IsProbableEOF):
 * Node says ECONNRESET both for a reset and for a server that closed first ("socket hang up"),
 * which is how a GET racing a server's close of an idle keep-alive connection ends.
 */
export function isLostConnection(e: unknown): boolean {
  return (e as NodeJS.ErrnoException | undefined)?.code === 'ECONNRESET';
}
