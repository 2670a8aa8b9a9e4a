// The endpoint's handler chain, as the controller manager's BuildHandlerChain: one error boundary
// turning errors into Status bodies, authentication (401), authorization (403; a failed
// SubjectAccessReview is 500, in plain text as upstream's InternalError), then the routes: /healthz
// (with ?verbose and ?exclude; no per-check subpaths), /livez and /readyz (with their per-check
// subpaths, as kube-scheduler installs them: the issue asks for them), /metrics and the health
// checks' SLIs at /metrics/slis (the Prometheus
// text format, gzipped when the client accepts it, as promhttp), /configz (whatever the method, as component-base's handler),
// with --profiling /debug/pprof/ and /debug/flags/v. Anything else is upstream's mux answer: 404
// page not found.
import type Koa from 'koa';
import { koaClass } from '../../core/server/koa-class.js';
import { errors, isStatusError } from '../../core/api/errors.js';
import type { Attributes } from '../../core/authz/attributes.js';
import { forbiddenError } from '../../core/authz/forbidden.js';
import { internalErrorText } from '../../core/server/internal-error-text.js';
import { goClientErrorText } from '../../core/client/go-url-error.js';
import type { Logger } from '../../core/log.js';
import type { HealthChecks } from '../../core/server/health.js';
import { CONFIGZ_PATH, writeConfigz, type Configz } from '../../core/server/configz.js';
import { sendMetrics } from '../../core/metrics/serve.js';
import type { MetricsRegistry } from '../../core/metrics/registry.js';
import { HealthSlis, serveSlis } from '../../core/metrics/health-slis.js';
import { sendStatus } from '../../core/server/respond.js';
import type { DelegatingAuthenticator } from '../../core/authn/delegating-authenticator.js';
import { logUnauthenticated } from '../../core/authn/unauthenticated-log.js';
import { serveDebug } from '../../core/server/debug/index.js';
import { goRequestPath } from '../../core/server/url-path.js';
import { isAnonymousUser, limitHttp2Connection } from '../../core/server/http2-dos-mitigation.js';
import type { DelegatedAuthorizer } from './delegated-authorization.js';

export interface EndpointDeps {
  readonly authenticator: DelegatingAuthenticator;
  readonly authorizer: DelegatedAuthorizer;
  readonly health: HealthChecks;
  readonly metrics: MetricsRegistry;
  readonly configz: Configz;
  readonly logger: Logger;
  /** Feature gate UnauthenticatedHTTP2DOSMitigation (on unless false): GOAWAY after an anonymous request or a 401 over HTTP/2. */
  readonly http2Mitigation?: boolean;
  /** Present with --profiling: the debugging handlers, until the endpoint stops. */
  readonly debug?: { readonly shutdown: AbortSignal };
}

/** The authorizer could not decide (a SubjectAccessReview that failed). */
class AuthorizationFailed extends Error {}


const plainText = (ctx: Koa.Context, code: number, body: string) => {
  ctx.status = code;
  ctx.type = 'text/plain; charset=utf-8';
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = body;
};

export function createEndpointApp(deps: EndpointDeps): Koa {
  const app = new (koaClass())();
  const slis = new HealthSlis();
  deps.health.observeWith((check, endpoint, status) => slis.observe(check, endpoint, status));
  const log = deps.logger;
  app.proxy = false;
  app.silent = true;
  app.use(goRequestPath);

  app.use(async (ctx, next) => {
    // Never cached by a proxy: answers depend on who asks (upstream's WithCacheControl).
    ctx.set('Cache-Control', 'no-cache, private');
    try {
      await next();
    } catch (e) {
      if (isStatusError(e)) return sendStatus(ctx, e.status, e.headers);
      // responsewriters.InternalError hands the authorizer's error to utilruntime.HandleError.
      if (e instanceof AuthorizationFailed) {
        log.error('Unhandled Error', { err: e.message });
        return plainText(ctx, 500, internalErrorText(ctx.url, e.message));
      }
      log.error('internal error serving request', { method: ctx.method, path: ctx.path, error: e instanceof Error ? e.message : String(e) });
      sendStatus(ctx, errors.internal(e).status);
    }
  });

  app.use(async (ctx, next) => {
    const auth = await deps.authenticator.authenticate(ctx.req);
    if (!('user' in auth)) {
      // WithAuthentication's line for the union's error: any credential refused (a bad token, a
      // certificate that does not verify, a review that failed); with none presented, plat's own.
      if (auth.error !== undefined) log.error('Unable to authenticate the request', { err: auth.error });
      else logUnauthenticated(log, ctx);
      if (deps.http2Mitigation !== false) limitHttp2Connection(ctx.req);
      throw errors.unauthorized();
    }
    if (deps.http2Mitigation !== false && isAnonymousUser(auth.user)) limitHttp2Connection(ctx.req);
    // Upstream resolves with a RequestInfoFactory that knows no API prefixes: every path here,
    // /apis/... included, is a plain path asked about with the lower-cased method.
    const attrs: Attributes = {
      user: auth.user, verb: ctx.method.toLowerCase(), isResourceRequest: false, path: ctx.path,
      apiGroup: '', apiVersion: '', resource: '', subresource: '', namespace: '', name: '',
    };
    const decision = await deps.authorizer.authorize(attrs).catch((e: unknown) => {
      // The review's own error, as client-go's reads (`Post "<url>": dial tcp ...`), not Node's.
      throw new AuthorizationFailed(goClientErrorText(e));
    });
    if (decision?.decision !== 'allow') {
      log.v(4).info('Forbidden', { URI: ctx.url, reason: decision?.reason ?? '' });
      throw forbiddenError(attrs, decision?.reason);
    }
    await next();
  });

  app.use(async (ctx) => {
    if (deps.debug && await serveDebug(ctx, log, deps.debug.shutdown)) return;
    if (ctx.path === '/metrics') return sendMetrics(ctx, deps.metrics.expose());
    // Installed beside /metrics by kube-controller-manager (slis.SLIMetricsWithReset).
    if (ctx.path === '/metrics/slis') return serveSlis(ctx, slis, true);
    if (ctx.path === CONFIGZ_PATH) return writeConfigz(ctx, deps.configz.entries());
    // NewBaseHandler mounts the healthz handler at the exact /healthz of its mux: the handler's own
    // per-check paths are never reached. kube-controller-manager has no /livez or /readyz; plat's
    // serves them as kube-scheduler does (healthz.InstallLivezHandler, InstallReadyzHandler): each
    // with its per-check paths, /livez with ping alone (a follower or a controller not yet started
    // is alive), /readyz with the /healthz checks.
    // serve() answers every health path itself and undefined for anything else.
    if (!ctx.path.startsWith('/healthz/')) {
      const health = await deps.health.serve(ctx.path, new URLSearchParams(ctx.querystring));
      if (health) return plainText(ctx, health.code, health.body);
    }
    plainText(ctx, 404, '404 page not found\n');
  });
  return app;
}
