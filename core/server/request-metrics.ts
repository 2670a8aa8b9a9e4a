// Records apiserver_request_total, _duration_seconds and _response_sizes for the requests
// upstream instruments: those that reach a resource's handler (go-restful's InstrumentRouteFunc;
// a request refused before, 401, 403, 429, is not counted) and the roots of /healthz, /livez and
// /readyz (healthz's InstrumentHandlerFunc). The handler marks the request once it has a route
// (`instrumentResource`, through rest.ts's `routed`; `instrumentHealth`); this middleware, outside compression and the error boundary, records it
// once answered: the code sent, the body's bytes as sent (gzipped ones gzipped), the time since
// the request reached the server. A watch is recorded when it ends, with the bytes it streamed
// (its events' lines, as upstream's delegate counts what the handler writes) when its route is
// the collection's GET (`?watch=true`; upstream's LIST route), not on the deprecated /watch/ paths.
import { performance } from 'node:perf_hooks';
import type Koa from 'koa';
import { APISERVER_COMPONENT, dryRunLabel, reportedVerb, watchRequested, type RequestLabels, type RequestMetrics } from '../metrics/apiserver-requests.js';
import type { WatchMetrics } from '../metrics/apiserver-watch.js';
import type { TerminationMetrics } from '../metrics/apiserver-inflight.js';
import type { GaugeChild } from '../metrics/registry.js';
import type { RequestInfo } from './request-info.js';

const ROUTE = Symbol('instrumented route');
const STREAMED = Symbol('streamed bytes');
type Marked = { [ROUTE]?: RequestLabels; [STREAMED]?: number };

/** The bytes a streamed answer (a watch) wrote, for apiserver_response_sizes when it ends. */
export function streamedBytes(ctx: Koa.Context, bytes: number): void {
  (ctx.state as Marked)[STREAMED] = bytes;
}

/**
 * RecordLongRunning's gauge for this request: CleanScope's scope (a name, from the path or a
 * metadata.name field selector, makes it `resource`) and the verb of the method and ?watch only,
 * so a deprecated /watch/ path without ?watch is reported as LIST (GET for one name), as upstream's.
 */
export function longRunningGauge(ctx: Koa.Context, info: RequestInfo, query: URLSearchParams, metrics: WatchMetrics): GaugeChild {
  const scope = cleanScope(info);
  const verb = reportedVerb(ctx.method, scope, false, query, ctx.get('content-type'), info.subresource);
  return metrics.longRunning(verb, info.apiGroup, info.apiVersion, info.resource, info.subresource, scope, APISERVER_COMPONENT);
}

/** CleanScope: a name or a create is `resource`, then `namespace`, `cluster`; a non-resource request has none. */
export function cleanScope(info: RequestInfo): string {
  if (info.name || info.verb === 'create') return 'resource';
  if (info.namespace) return 'namespace';
  return info.isResourceRequest ? 'cluster' : '';
}

/**
 * RecordRequestTermination: a request the server ended itself (the max-in-flight 429, the
 * deadline's 504), with the verb of its method and query and, for a non-resource one, its path.
 */
export function recordTermination(ctx: Koa.Context, info: RequestInfo, query: URLSearchParams, metrics: TerminationMetrics, code: number): void {
  const scope = cleanScope(info);
  const verb = reportedVerb(ctx.method, scope, false, query, ctx.get('content-type'), info.subresource);
  const resource = info.isResourceRequest;
  metrics.record({
    verb, group: resource ? info.apiGroup : '', version: resource ? info.apiVersion : '', resource: resource ? info.resource : '',
    subresource: resource ? info.subresource : info.path, scope, component: APISERVER_COMPONENT,
  }, code);
}

/**
 * The route's scope as upstream's installer gives it: an item's routes and every POST are
 * `resource`, a namespaced collection under a namespace `namespace`, the rest `cluster`.
 */
function routeScope(info: RequestInfo, method: string): string {
  if (info.parts[1] || method === 'POST') return 'resource';
  return info.namespace ? 'namespace' : 'cluster';
}

export function instrumentResource(ctx: Koa.Context, info: RequestInfo, query: URLSearchParams): void {
  const scope = routeScope(info, ctx.method);
  // The deprecated /watch/ routes (request-info.ts reads ?watch more strictly than getVerbIfWatch,
  // so a watch it saw there was asked for by the path).
  const watchRoute = info.verb === 'watch' && !watchRequested(query);
  (ctx.state as Marked)[ROUTE] = {
    verb: reportedVerb(ctx.method, scope, watchRoute, query, ctx.get('content-type'), info.subresource),
    dryRun: dryRunLabel(ctx.querystring, query),
    group: info.apiGroup, version: info.apiVersion, resource: info.resource, subresource: info.subresource, scope,
    component: APISERVER_COMPONENT,
    // The GET and LIST routes; a HEAD is answered by them too.
    sized: !watchRoute && (ctx.method === 'GET' || ctx.method === 'HEAD'),
  };
}

/** healthz's instrumentation: route verb GET, the path as subresource, no component or scope. */
export function instrumentHealth(ctx: Koa.Context, query: URLSearchParams): void {
  const verb = ctx.method.toUpperCase();
  (ctx.state as Marked)[ROUTE] = {
    verb: reportedVerb(verb, '', false, query, '', ''), dryRun: dryRunLabel(ctx.querystring, query),
    group: '', version: '', resource: '', subresource: ctx.path, scope: '', component: '', sized: true,
  };
}


export function recordRequests(metrics: RequestMetrics): Koa.Middleware {
  return async (ctx, next) => {
    const start = performance.now();
    await next();
    const route = (ctx.state as Marked)[ROUTE];
    if (!route) return;
    const seconds = (performance.now() - start) / 1000;
    if (ctx.respond === false) return metrics.record(route, ctx.res.statusCode, (ctx.state as Marked)[STREAMED], seconds);
    metrics.record(route, ctx.status, bodyBytes(ctx.body), seconds);
  };
}

function bodyBytes(body: unknown): number {
  if (body === null || body === undefined) return 0;
  if (typeof body === 'string') return Buffer.byteLength(body);
  if (Buffer.isBuffer(body)) return body.length;
  return 0;
}
