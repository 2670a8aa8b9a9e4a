// client-go's withRetry (rest/with_retry.go) for one request: up to 10 retries of an answer that
// asks for one (429 or 5xx with a Retry-After of whole seconds) after that many seconds, and of a
// GET that lost its connection (reset, or closed before the answer) after an artificial
// `Retry-After: 1`. Its rules are here so that every client retries alike: rest-client.ts's loop
// adds the lost connections and a rate-limiter token per retry (client-go's Before()); the webhook
// clients, which have no rate limiter and send only POSTs, use withRetryAfter.
import type { IncomingHttpHeaders } from 'node:http';
import { sleep } from '../abort-wait.js';

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

/** An answer that asked to be retried (checkWait): the attempt's outcome when it may still ask. */
export class RetryAfter { constructor(readonly seconds: number) {} }

export interface RetryAfterBounds {
  /** When the Do's context ends (epoch ms): client-go's r.timeout, or a caller's deadline. */
  readonly deadline: number;
  /** Aborts with that context; a wait ends early on it. */
  readonly signal?: AbortSignal | undefined;
  /** The error once the context has ended. */
  readonly expired: () => Error;
  /** Told after each wait, as client-go's Before says `Got a Retry-After ...` (also when the context ended meanwhile). */
  readonly retrying?: ((seconds: number, attempt: number) => void) | undefined;
}

/**
 * One Do of a request whose body can be sent again (client-go keeps it as bytes): `attempt` is
 * told whether it may still ask for a retry, and resolves with its value or a RetryAfter; up to
 * MAX_RETRIES retries follow, each after the server's wait. Client-go sleeps the whole wait and
 * then fails its next attempt on the ended context; a wait that would outlast the deadline ends
 * the Do with the same error at the deadline instead.
 */
export async function withRetryAfter<T>(attempt: (mayRetry: boolean) => Promise<T | RetryAfter>, o: RetryAfterBounds): Promise<T> {
  for (let retries = 0; ; retries++) {
    const answer = await attempt(retries < MAX_RETRIES);
    if (!(answer instanceof RetryAfter)) return answer;
    const wait = Math.max(0, answer.seconds) * 1000;
    if (Date.now() + wait >= o.deadline) {
      await sleep(Math.max(0, o.deadline - Date.now()), o.signal);
      o.retrying?.(answer.seconds, retries + 1);
      throw o.expired();
    }
    await sleep(wait, o.signal);
    o.retrying?.(answer.seconds, retries + 1);
    if (o.signal?.aborted) throw o.expired();
  }
}
