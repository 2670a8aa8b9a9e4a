// Upstream's WithWaitGroup and its SafeWaitGroup: every non-long-running request is counted while
// it runs, so the shutdown can wait for the ones in flight (InFlightRequestsDrained). Once that
// wait has begun (NotAcceptingNewRequest), a request that still reaches the server (an HTTP/2
// stream opened before the client read the GOAWAY, a request on a connection the drain is about to
// close, any request with --shutdown-send-retry-after that WithRetryAfter let through) is not
// started but answered 503 "apiserver is shutting down" with `Retry-After: 1`, so the client
// retries, likely on another server. Long-running requests are not counted and pass; so do the
// requests exempt from Retry-After.
import type Koa from 'koa';
import { errors } from '../api/errors.js';
import { goJsonEncode } from '../api/go-json-marshal.js';
import { isLongRunning } from './request-deadline.js';
import type { RequestInfo } from './request-info.js';
import { isExemptFromRetryAfter } from './retry-after.js';

const SHUTTING_DOWN = goJsonEncode(errors.serviceUnavailable('apiserver is shutting down').status);

/** A count of requests that refuses new ones once waited on. */
export class RequestWaitGroup {
  #count = 0;
  #closed = false;
  #idle: (() => void) | undefined;

  get count(): number { return this.#count; }

  /** Counts one request in; false once wait() has been called. */
  add(): boolean {
    if (this.#closed) return false;
    this.#count++;
    return true;
  }

  done(): void {
    if (--this.#count === 0) this.#idle?.();
  }

  /** Refuses new requests from now on; resolves when the ones counted have all ended. */
  wait(): Promise<void> {
    this.#closed = true;
    if (this.#count === 0) return Promise.resolve();
    return new Promise<void>((resolve) => { this.#idle = resolve; });
  }
}

/** Written as waitGroupWriteRetryAfterToResponse does: always JSON, whatever was asked for. */
export function writeShuttingDown(ctx: Koa.Context): void {
  ctx.status = 503;
  ctx.set('Retry-After', '1');
  ctx.set('Content-Type', 'application/json');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = SHUTTING_DOWN;
}

/** Middleware after request info, before the request deadline and authentication, as upstream orders it. */
export function withWaitGroup(wg: RequestWaitGroup): Koa.Middleware<{ info: RequestInfo }> {
  return async (ctx, next) => {
    if (isLongRunning(ctx.state.info)) return next();
    if (!wg.add()) {
      if (isExemptFromRetryAfter(ctx as unknown as Koa.Context)) return next();
      return writeShuttingDown(ctx as unknown as Koa.Context);
    }
    try {
      await next();
    } finally {
      wg.done();
    }
  };
}
