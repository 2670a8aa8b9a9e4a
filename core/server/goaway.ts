// --goaway-chance, as upstream's WithProbabilisticGoaway: an HTTP/2 request is, with that chance,
// the last its connection serves, so a client stuck on one server behind a load balancer
// reconnects and may land on another. Upstream sets `Connection: close`, which Go's HTTP/2 server
// turns into a graceful GOAWAY as the answer's headers go out; here the session is closed at that
// moment: this stream and the others open finish, new ones go to a new connection. HTTP/1.x is
// never affected. The random source is injectable so tests need not rely on chance.
import type { Http2ServerRequest } from 'node:http2';
import type Koa from 'koa';
import { limitHttp2Connection } from './http2-dos-mitigation.js';
import { beforeHead } from './response-head.js';

export const GOAWAY_CHANCE_FLAG = 'goaway-chance';
/** Upstream's bound: 1 request in 50. */
const MAX_CHANCE = 0.02;

/** ServerRunOptions.Validate's check, in its words. */
export function goawayChanceProblems(chance: number): string[] {
  return chance < 0 || chance > MAX_CHANCE ? ['--goaway-chance can not be less than 0 or greater than 0.02'] : [];
}

/**
 * The filter, or undefined when the chance is not above 0 (upstream installs none then, nor with
 * HTTP/2 off). `random` is math/rand's Float64: a number in [0, 1).
 */
export function withProbabilisticGoaway(chance: number, random: () => number = Math.random): Koa.Middleware | undefined {
  if (!(chance > 0)) return undefined;
  return async (ctx, next) => {
    if (ctx.req.httpVersionMajor === 2 && random() < chance) {
      const req = ctx.req as unknown as Http2ServerRequest;
      beforeHead(ctx.res, () => limitHttp2Connection(req));
    }
    await next();
  };
}
