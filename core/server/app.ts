// The API server's HTTP pipeline as koa middleware: one error boundary that turns every thrown
// error into a Status (a crash into upstream's panic answer, panic.ts), request info, the request
// deadline (504 past --request-timeout), authentication (401), the max-in-flight limit (429,
// max-in-flight.ts), authorization (403), then routing to discovery, OpenAPI, health, version and
// the REST handlers of registered resources.
import { setMaxListeners } from 'node:events';
import type Koa from 'koa';
import { koaClass } from './koa-class.js';
import { errors, isStatusError } from '../api/errors.js';
import { logUnauthenticated } from '../authn/unauthenticated-log.js';
import { countAsTokenError } from '../authn/token-authentication.js';
import { AUTHENTICATED_GROUP, type AuthenticationRequest, type UserInfo } from '../authn/user.js';
import type { Attributes } from '../authz/attributes.js';
import { forbiddenError } from '../authz/forbidden.js';
import { selectorsFromQuery } from '../authz/selector-attributes.js';
import { AuthorizationError, authorizeUnion } from '../authz/union.js';
import { aggregate } from '../aggregate.js';
import { asUserInfo, userInfoProblem } from '../authn/user-shape.js';
import { aroundTap } from '../around-tap.js';
import { sendInternalErrorText } from './internal-error-text.js';
import { withCacheControl } from './cache-control.js';
import { withCors } from './cors.js';
import { withProbabilisticGoaway } from './goaway.js';
import { withHsts } from './hsts.js';
import { compressResponses } from './compression.js';
import { isAnonymousUser, limitHttp2Connection } from './http2-dos-mitigation.js';
import { headerBytesBody } from './header-bytes.js';
import type { Hooks } from '../hooks.js';
import type { Logger } from '../log.js';
import type { Resources } from '../registry/registry.js';
import { isStorageError } from '../storage/storage.js';
import type { ResourceStore } from '../registry/store.js';
import { ImpersonationRequestError, impersonate, isImpersonationHeader } from './impersonation.js';
import { aggregatedRequested, serveAggregatedDiscovery } from './aggregated-discovery.js';
import { apiGroupDocument, apiGroupList, apiResourceList, apiVersions } from './discovery.js';
import type { HealthChecks } from './health.js';
import { serveDebug } from './debug/index.js';
import { SNAPSHOT_PATH, snapshotHandler, type SnapshotSource } from './snapshot-route.js';
import { buildOpenApi, type OpenApiDocs } from './openapi.js';
import { serveOpenApiGroupVersion, serveOpenApiIndex } from './openapi-handler.js';
import { buildOpenApiV2, type OpenApiV2 } from './openapi-v2.js';
import { openApiV2Service, serveOpenApiV2 } from './openapi-v2-handler.js';
import { peerCertificates } from './peer.js';
import { AuthenticationAttempt, FAILED } from './authentication-attempt.js';
import { isPrettyPrint } from './pretty-print.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, requestDeadline } from './request-deadline.js';
import { requestInfo, type RequestInfo } from './request-info.js';
import { sendJson, sendRawJson, sendStatus } from './respond.js';
import { serveResource } from './rest.js';
import { goRequestPath } from './url-path.js';
import { sendRetryAfter } from './retry-after.js';
import { withWaitGroup, type RequestWaitGroup } from './wait-group.js';
import { withMaxInFlightLimit, type InFlightRequests } from './max-in-flight.js';
import { withWatchTermination, type WatchTermination, type WatchWaitGroup } from './watch-termination.js';
import { resolveWireAlias, statusInWireGroup, type WireAlias } from './wire-alias.js';
import { performance } from 'node:perf_hooks';
import type { ApiServerMetrics } from '../metrics/apiserver.js';
import type { AuthMetrics } from '../metrics/apiserver-auth.js';
import { sendMetrics } from '../metrics/serve.js';
import { serveSlis } from '../metrics/health-slis.js';
import { instrumentHealth, instrumentResource, recordRequests } from './request-metrics.js';
import { auditFailedAuthentication, beginAudit, createAudit, DECISION_ANNOTATION, REASON_ANNOTATION, type AuditSink, type AuditState, type RequestAudit } from '../audit/request-audit.js';
import { withAuditId } from '../audit/audit-id.js';
import { isLongRunning } from './request-deadline.js';
import { auditPanics, isPanic, sendPanic } from './panic.js';
import { closeAfterUnreadBody } from './unread-body.js';
import { paceLargeBodies } from './paced-body.js';

export interface VersionInfo {
  major: string; minor: string; gitVersion: string; gitCommit: string; gitTreeState: string;
  buildDate: string; goVersion: string; compiler: string; platform: string;
}

export interface ApiServerDeps {
  readonly hooks: Hooks;
  readonly resources: Resources;
  readonly stores: ReadonlyMap<string, ResourceStore>;
  readonly health: HealthChecks;
  readonly version: VersionInfo;
  readonly logger: Logger;
  readonly minRequestTimeoutSeconds: number;
  /** --delete-collection-workers (core/registry/delete-collection.ts); 1 when not given. */
  readonly deleteCollectionWorkers?: number;
  /** Feature gate APIResponseCompression (on unless turned off): large API answers gzipped when asked. */
  readonly compression?: boolean;
  /** Feature gate UnauthenticatedHTTP2DOSMitigation (on unless turned off): see http2-dos-mitigation.ts. */
  readonly unauthenticatedHttp2Mitigation?: boolean;
  /** Feature gate StorageVersionHash (on unless turned off): discovery's APIResources carry storageVersionHash. */
  readonly storageVersionHash?: boolean;
  /** --request-timeout: non-long-running requests answer 504 past it (DEFAULT_REQUEST_TIMEOUT_MS). */
  readonly requestTimeoutMs?: number;
  /** --strict-transport-security-directives: every answer from inside the chain carries them (hsts.ts). */
  readonly hstsDirectives?: readonly string[];
  /** --cors-allowed-origins, validated: matching origins get CORS headers and their preflights 204 (cors.ts). */
  readonly corsAllowedOrigins?: readonly string[];
  /** --goaway-chance, 0 with HTTP/2 off: that share of HTTP/2 requests end their connection (goaway.ts). */
  readonly goawayChance?: number;
  /** The goaway filter's draws in [0, 1), for tests; Math.random otherwise. */
  readonly goawayRandom?: () => number;
  /** --enable-priority-and-fairness=false: the max-in-flight filter's counts (max-in-flight.ts). */
  readonly maxInFlight?: InFlightRequests;
  /** The server stops for good: open watches and profiles end. */
  readonly shutdown: AbortSignal;
  /** Non-long-running requests in flight, counted for the drain; refused once it waits (wait-group.ts). */
  readonly requests?: RequestWaitGroup;
  /** --shutdown-watch-termination-grace-period > 0: watches end when the drain begins (watch-termination.ts). */
  readonly watches?: WatchWaitGroup;
  /** --shutdown-send-retry-after: aborts when the drain begins; new requests are answered 429 from then on (retry-after.ts). */
  readonly retryAfter?: AbortSignal;
  /** host:port clients reach this server at (discovery's serverAddressByClientCIDRs). */
  readonly serverAddress: string;
  /** --profiling: /debug/pprof/ and /debug/flags/v are served. */
  readonly profiling?: boolean;
  /** GET /snapshot: a consistent copy of the store, streamed (snapshot-route.ts); not served without it. */
  readonly snapshot?: SnapshotSource;
  /** GET /metrics, and what the request path records into it (core/metrics/apiserver.ts). */
  readonly metrics?: ApiServerMetrics;
  readonly now?: () => Date;
  /** --audit-policy-file and at least one backend tapping `audit`: requests are audited (core/audit/). */
  readonly audit?: AuditSink;
}

export { storeKey } from '../registry/stores.js';
import { storeKey } from '../registry/stores.js';
import type { Output } from './output-media-type.js';

interface State {
  info: RequestInfo; query: URLSearchParams; user: UserInfo; alias?: WireAlias;
  /** A resource request's or aggregated discovery's answer form, agreed on before it is served (rest.ts). */
  output?: Output;
  /** A watch's part in --shutdown-watch-termination-grace-period (watch-termination.ts). */
  watchTermination?: WatchTermination;
  /** When a request that is not long-running times out, in ms since the epoch (request-deadline.ts). */
  deadline?: number;
  /** A request that is not long-running: its context, ended at the deadline or when the client goes away (request-signal.ts). */
  signal?: AbortSignal;
  /** Warnings the authenticators gave, already on the answer; rest.ts keeps them first. */
  authenticationWarnings?: string[];
  /** The Audit-ID, and the request's audit event when the policy audits it (core/audit/request-audit.ts). */
  audit: AuditState;
}

const ACTIVE = Symbol('active authenticator');
type TrackedRequest = AuthenticationRequest & { [ACTIVE]?: { name: string }; [FAILED]?: (name: string, err: unknown) => void };

/**
 * Records which authenticator is running for each request, so that one that throws is named:
 * every tap (present and future) is wrapped to mark the request before it runs. The hook runs
 * taps one after another, so the mark holds across their awaits. A tap that throws is upstream's
 * authenticator that returns an error: recorded with its name, and the chain goes on (union.New);
 * the error counts as a rejection, so anonymous does not take the request over (upstream's
 * NewFailOnError around the union). A request built elsewhere (a TokenReview) gets the error as a
 * reject() reason.
 */
function trackAuthenticators(hooks: Hooks): void {
  hooks.authenticate.intercept({
    register: (tap) => {
      const marked = { ...tap, fn: (req: TrackedRequest, ...rest: unknown[]) => { req[ACTIVE] = { name: tap.name }; return (tap.fn as (...a: unknown[]) => unknown)(req, ...rest); } };
      const failed = (args: unknown[], err: unknown): undefined => {
        const req = args[0] as TrackedRequest;
        countAsTokenError(req);
        if (req[FAILED]) req[FAILED](tap.name, err);
        else req.reject(err instanceof Error ? err.message : String(err));
        return undefined;
      };
      return aroundTap(marked, {
        // An answer that is no user is that authenticator's error, as a throw is.
        answer: (args, user) => {
          if (user === undefined || user === null) return undefined;
          const problem = userInfoProblem(user);
          return problem ? failed(args, new Error(problem)) : asUserInfo(user as Record<string, unknown>);
        },
        failed,
      });
    },
  });
}

async function authenticate(hooks: Hooks, ctx: Koa.Context, log: Logger, metrics: AuthMetrics | undefined, http2Mitigation: boolean): Promise<UserInfo> {
  const start = metrics ? performance.now() : 0;
  const { leaf, chain } = peerCertificates(ctx.req);
  const req = new AuthenticationAttempt(ctx, log, leaf, chain);
  const { errorTexts } = req;
  const user = await hooks.authenticate.promise(req);
  // recordAuthenticationMetrics: an authenticator's error is `error`, no credential known `failure`.
  if (metrics) {
    const seconds = (performance.now() - start) / 1000;
    if (user) metrics.authenticated('success', seconds, user.name);
    else metrics.authenticated(errorTexts.length ? 'error' : 'failure', seconds);
  }
  if (!user) {
    // WithAuthentication logs the union's error (v1.32's ErrorS; its Errorf "... due to an error: %v"
    // is pre-1.21); the client gets only 401. No credential at all is no error: plat's line, at -v 2.
    if (errorTexts.length) log.error('Unable to authenticate the request', { err: aggregate(errorTexts) });
    else logUnauthenticated(log, ctx);
    if (http2Mitigation) limitHttp2Connection(ctx.req);
    throw errors.unauthorized();
  }
  const anonymous = isAnonymousUser(user);
  if (anonymous && http2Mitigation) limitHttp2Connection(ctx.req);
  if (anonymous || user.groups.includes(AUTHENTICATED_GROUP)) return user;
  return { ...user, groups: [...user.groups, AUTHENTICATED_GROUP] };
}

export function createApp(deps: ApiServerDeps): Koa<State> {
  // Every open watch listens for shutdown; more than ten is normal, not a leak.
  setMaxListeners(0, deps.shutdown);
  trackAuthenticators(deps.hooks);
  const app = new (koaClass())<State>();
  const now = deps.now ?? (() => new Date());
  let openapi: OpenApiDocs | undefined;
  const docs = () => (openapi ??= buildOpenApi(deps.resources));
  let openapiV2: OpenApiV2 | undefined;
  const swagger = openApiV2Service(() => (openapiV2 ??= buildOpenApiV2(deps.resources, deps.version.gitVersion)));
  const log = deps.logger;
  const snapshot = deps.snapshot && snapshotHandler(deps.snapshot, log);
  // healthz.go's slis.ObserveHealthcheck: each check a root health path evaluates.
  if (deps.metrics) {
    const slis = deps.metrics.slis;
    deps.health.observeWith((check, endpoint, status) => slis.observe(check, endpoint, status));
  }
  app.proxy = false;
  app.silent = true;
  // Outermost, so it paces the answer as finally set (gzipped, Connection: close added).
  app.use(paceLargeBodies);
  app.use(closeAfterUnreadBody);
  app.use(goRequestPath);
  app.use(headerBytesBody);
  // WithAuditInit, outermost upstream: every answer carries its Audit-ID, audited or not.
  app.use(withAuditId);
  // Outside compression, so a gzipped answer's size is its bytes sent, as upstream's.
  if (deps.metrics) app.use(recordRequests(deps.metrics.requests));
  if (deps.compression !== false) app.use(compressResponses());

  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (e) {
      if (isStatusError(e)) return sendStatus(ctx, ctx.state.alias ? statusInWireGroup(e.status, ctx.state.alias) : e.status, e.headers);
      // A storage failure the registry does not translate (a full disk) reaches the client as
      // kube-apiserver passes an etcd error on (ErrorToAPIStatus): 500, no reason, its own text.
      if (isStorageError(e)) {
        log.error('storage error serving request', { method: ctx.method, path: ctx.path, error: e.message });
        return sendStatus(ctx, errors.unknown(e.message).status);
      }
      // What is left and no crash (panic.ts) is an error upstream's handler returns: an authorizer
      // that failed deeper in (a create on update asks the chain; the log names the plugins), or a
      // stored value no encryption provider can read (storage.NewInternalError). An InternalError.
      if (!isPanic(e)) {
        const failed = e instanceof AuthorizationError ? { error: e.stack ?? String(e), authorizers: e.describe() } : { error: (e as Error).message };
        log.error('internal error serving request', { method: ctx.method, path: ctx.path, ...failed });
        return sendStatus(ctx, errors.internal(e).status);
      }
      sendPanic(ctx, log, e);
    }
    // The answer is set, not yet written: its audit event goes out first (a streamed answer, a
    // watch, has sent its head already and completes when its connection ends).
    const audit = (ctx.state as { audit?: AuditState }).audit?.request;
    if (audit && !ctx.res.headersSent) await audit.complete(ctx.status);
  });

  app.use(async (ctx, next) => {
    ctx.state.query = new URLSearchParams(ctx.querystring);
    const asked = requestInfo(ctx.method, ctx.path, ctx.state.query);
    const alias = resolveWireAlias(deps.resources, asked);
    const info = alias?.info ?? asked;
    ctx.state.info = info;
    if (alias) ctx.state.alias = alias;
    await next();
  });

  // Upstream's order: WithRetryAfter, WithHSTS, WithCacheControl, WithProbabilisticGoaway,
  // WithWatchTerminationDuringShutdown, WithWaitGroup, WithRequestDeadline, WithCORS.
  const optional = (m: Koa.Middleware | undefined) => { if (m) app.use(m); };
  if (deps.retryAfter) app.use(sendRetryAfter(deps.retryAfter));
  optional(withHsts(deps.hstsDirectives ?? []));
  app.use(withCacheControl);
  optional(withProbabilisticGoaway(deps.goawayChance ?? 0, deps.goawayRandom));
  if (deps.watches) app.use(withWatchTermination(deps.watches));
  if (deps.requests) app.use(withWaitGroup(deps.requests));
  app.use(requestDeadline(deps.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS, log, deps.metrics?.terminations));
  optional(withCors(deps.corsAllowedOrigins ?? []));

  if (deps.audit) app.use(auditPanics);
  app.use(async (ctx, next) => {
    const { info } = ctx.state;
    const sink = deps.audit;
    let requestor: UserInfo;
    try {
      requestor = await authenticate(deps.hooks, ctx, log, deps.metrics?.auth, deps.unauthenticatedHttp2Mitigation !== false);
    } catch (e) {
      if (sink && isStatusError(e) && e.status.code === 401) {
        const failed = createAudit(sink, { ctx, state: ctx.state.audit, verb: info.verb, attributes: auditAttributes(info) });
        if (failed) auditFailedAuthentication(failed, ctx);
      }
      throw e;
    }
    let audit: RequestAudit | undefined;
    if (sink) {
      audit = createAudit(sink, { ctx, state: ctx.state.audit, verb: info.verb, attributes: auditAttributes(info, requestor), user: requestor });
      if (audit) {
        ctx.state.audit.request = audit;
        // Only a blocking-strict backend fails it: the request is not served unaudited.
        if (!(await beginAudit(audit, ctx, isLongRunning(info)))) return sendInternalErrorText(ctx, 'failed to store audit event');
      }
    }
    try {
      ctx.state.user = await impersonate(deps.hooks, requestor, ctx.req.rawHeaders);
    } catch (e) {
      if (e instanceof ImpersonationRequestError) return sendInternalErrorText(ctx, e.message);
      throw e;
    }
    if (ctx.state.user !== requestor) {
      audit?.logImpersonatedUser(ctx.state.user);
      for (const h of Object.keys(ctx.req.headers)) if (isImpersonationHeader(h)) delete ctx.req.headers[h];
      log.v(2).info('impersonating', { user: requestor.name, as: ctx.state.user.name, path: ctx.path });
    }
    await next();
  });

  // Between impersonation and authorization, as DefaultBuildHandlerChain puts WithMaxInFlightLimit.
  if (deps.maxInFlight) app.use(withMaxInFlightLimit(deps.maxInFlight, deps.metrics?.terminations));

  app.use(async (ctx, next) => {
    const { info } = ctx.state;
    const audit = ctx.state.audit.request;
    const selectors = selectorsFromQuery(info.fieldSelector, info.labelSelector);
    const attrs: Attributes = {
      user: ctx.state.user, verb: info.verb, isResourceRequest: info.isResourceRequest, path: info.path,
      apiGroup: info.apiGroup, apiVersion: info.apiVersion, resource: info.resource, subresource: info.subresource,
      namespace: info.namespace, name: info.name,
      ...(selectors ? { selectors } : {}),
      ...(ctx.state.signal ? { context: ctx.state.signal } : {}),
    };
    let decision;
    const authz = deps.metrics?.auth;
    const start = authz ? performance.now() : 0;
    try {
      decision = await authorizeUnion(deps.hooks.authorize, attrs);
    } catch (e) {
      authz?.authorized('error', (performance.now() - start) / 1000);
      if (!(e instanceof AuthorizationError)) throw e;
      audit?.addAnnotation(REASON_ANNOTATION, 'internal error');
      // WithAuthorization: an error and no allow is 500 (an allow after a failure still serves).
      log.error('authorizer failed', { method: ctx.method, path: ctx.path, user: ctx.state.user.name, err: e.describe() });
      return sendInternalErrorText(ctx, e.message);
    }
    if (authz) {
      const d = decision?.decision;
      authz.authorized(d === 'allow' ? 'allowed' : d === 'deny' ? (decision!.error !== undefined ? 'error' : 'denied') : 'no-opinion', (performance.now() - start) / 1000);
    }
    // WithAuthorization: a deny that came with an error is that error's 500, not a 403.
    if (decision?.decision === 'deny' && decision.error !== undefined) {
      audit?.addAnnotation(REASON_ANNOTATION, 'internal error');
      log.error('authorizer failed', { method: ctx.method, path: ctx.path, user: ctx.state.user.name, err: decision.error });
      return sendInternalErrorText(ctx, decision.error);
    }
    if (audit) {
      audit.addAnnotation(DECISION_ANNOTATION, decision?.decision === 'allow' ? 'allow' : 'forbid');
      audit.addAnnotation(REASON_ANNOTATION, decision?.reason ?? '');
    }
    if (decision?.decision !== 'allow') throw forbiddenError(attrs, decision?.reason);
    log.v(4).info('request', { verb: info.verb, path: ctx.path, user: ctx.state.user.name });
    await next();
  });

  app.use(async (ctx) => {
    const { info, user } = ctx.state;
    const { query } = ctx.state;
    if (info.isResourceRequest) {
      const store = deps.stores.get(storeKey(info.apiGroup, info.apiVersion, info.resource));
      if (!store) throw errors.pathNotFound();
      const alias = ctx.state.alias;
      const routed = deps.metrics ? () => instrumentResource(ctx, info, query) : undefined;
      await serveResource(ctx, store, info, user, { now, minRequestTimeoutSeconds: deps.minRequestTimeoutSeconds, shutdown: deps.shutdown, logger: log,
        ...(deps.deleteCollectionWorkers !== undefined ? { deleteCollectionWorkers: deps.deleteCollectionWorkers } : {}), ...(routed ? { routed } : {}), ...(deps.metrics ? { watchMetrics: deps.metrics.watches } : {}) }, alias?.aliasApiVersion);
      return;
    }
    if (deps.profiling && await serveDebug(ctx, log, deps.shutdown)) return;
    if (snapshot && ctx.path === SNAPSHOT_PATH) return snapshot(ctx);
    const path = ctx.path.replace(/\/+$/, '') || '/';
    // Health paths are exact (upstream registers them on its PathRecorderMux, not go-restful), and
    // like every mux handler (/apis, /apis/<group>, /openapi/v2, /openapi/v3, /) answer any method.
    // Upstream's DefaultMetrics: the legacy registry, whatever the method.
    if (deps.metrics && ctx.path === '/metrics') {
      await deps.metrics.refreshStorageObjects();
      return sendMetrics(ctx, deps.metrics.registry.expose());
    }
    // Installed beside /metrics (ComponentSLIs is GA): with --profiling as SLIMetricsWithReset.
    if (deps.metrics && ctx.path === '/metrics/slis') return serveSlis(ctx, deps.metrics.slis, deps.profiling === true);
    const health = await deps.health.serve(ctx.path, query);
    if (health) {
      if (deps.metrics && /^\/(?:healthz|livez|readyz)$/.test(ctx.path)) instrumentHealth(ctx, query);
      ctx.status = health.code;
      ctx.type = 'text/plain; charset=utf-8';
      if (health.nosniff) ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.body = health.body;
      return;
    }
    if (ctx.path === '/openapi/v3') return serveOpenApiIndex(ctx, docs());
    if (ctx.path.startsWith('/openapi/v3/')) return serveOpenApiGroupVersion(ctx, docs(), ctx.path.slice('/openapi/v3/'.length));
    if (ctx.path === '/openapi/v2') return serveOpenApiV2(ctx, swagger);
    // go-restful's GET routes: another method on them is its 405.
    const getRoute = (found: boolean) => {
      if (found && ctx.method !== 'GET' && ctx.method !== 'HEAD') throw errors.noRouteForMethod();
      return found;
    };
    if (getRoute(path === '/version')) return sendRawJson(ctx, deps.version);
    // Upstream installs /api with the core group only: with no core version served it is a path nothing serves.
    if (path === '/apis' || getRoute(path === '/api' && deps.resources.versions('').length > 0)) {
      const aggregated = aggregatedRequested(ctx.get('accept'), isPrettyPrint(ctx));
      if (aggregated) return serveAggregatedDiscovery(ctx, deps.resources, path === '/api', aggregated);
      return sendJson(ctx, 200, path === '/api' ? apiVersions(deps.resources, deps.serverAddress) : apiGroupList(deps.resources));
    }
    const gv = /^\/apis\/([^/]+)(?:\/([^/]+))?$/.exec(path) ?? /^\/api\/(v1)$/.exec(path);
    if (gv) {
      const [group, version] = path.startsWith('/api/') ? ['', gv[1]!] : [gv[1]!, gv[2]];
      const doc = version === undefined ? apiGroupDocument(deps.resources, group) : apiResourceList(deps.resources, group, version, deps.storageVersionHash !== false);
      if (doc && (version === undefined || getRoute(true))) return sendJson(ctx, 200, doc);
      throw errors.pathNotFound();
    }
    if (path === '/') return sendRawJson(ctx, { paths: rootPaths(deps) });
    const served = deps.resources.path(path)?.get();
    if (getRoute(served !== undefined) && served) {
      ctx.status = 200;
      ctx.set('Content-Type', served.contentType);
      for (const [k, v] of Object.entries(served.headers ?? {})) ctx.set(k, v);
      ctx.body = served.body;
      return;
    }
    throw errors.pathNotFound();
  });
  return app;
}

/** The parts of the request an audit policy rule looks at. */
function auditAttributes(info: RequestInfo, user?: UserInfo) {
  return {
    ...(user ? { user } : {}), verb: info.verb, isResourceRequest: info.isResourceRequest, path: info.path, namespace: info.namespace,
    apiGroup: info.apiGroup, apiVersion: info.apiVersion, resource: info.resource, subresource: info.subresource, name: info.name,
  };
}

function rootPaths(deps: ApiServerDeps): string[] {
  const paths = ['/apis', ...deps.health.paths(), ...(deps.metrics ? ['/metrics', '/metrics/slis'] : []), '/openapi/v2', '/openapi/v3', '/version', ...deps.resources.paths().filter((p) => deps.resources.path(p)?.get())];
  for (const g of deps.resources.groups()) {
    if (!g) { paths.push('/api', ...deps.resources.versions('').map((v) => `/api/${v}`)); continue; }
    paths.push(`/apis/${g}`, ...deps.resources.versions(g).map((v) => `/apis/${g}/${v}`));
  }
  return paths.sort();
}
