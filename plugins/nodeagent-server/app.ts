// The node agent's three HTTP handlers as koa apps, laid out as upstream's NewServer installs them:
// - secure (port): the auth filter (authentication 401, then a SubjectAccessReview per attribute of
//   request-attributes.ts, first allow wins, 403 otherwise, 500 when no decision could be had) in
//   front of everything, unknown paths included; /healthz, /pods, /metrics, /metrics/slis; with enableDebuggingHandlers
//   also /logs/, /debug/pprof/, /debug/flags/v (each 405 when its own switch is off), /configz and
//   /runningpods/; without it the debugging paths answer 405 "Debug endpoints are disabled.";
// - read-only (readOnlyPort): no authentication, /healthz, /pods, /metrics and /metrics/slis only;
// - health (healthzPort): /healthz only.
// The exec, attach, port-forward, run, containerLogs and checkpoint endpoints need a container
// runtime, /stats/ and /metrics/cadvisor, /metrics/resource, /metrics/probes cAdvisor, containers
// or probes: not served (404).
import type Koa from 'koa';
import { koaClass } from '../../core/server/koa-class.js';
import { configz } from '../../core/nodeagent/configz.js';
import { CONFIGZ_PATH, writeConfigz } from '../../core/server/configz.js';
import type { NodeAgentContext } from '../../core/nodeagent/context.js';
import type { Logger } from '../../core/log.js';
import type { DelegatingAuthenticator } from '../../core/authn/delegating-authenticator.js';
import { logUnauthenticated } from '../../core/authn/unauthenticated-log.js';
import { goClientErrorText } from '../../core/client/go-url-error.js';
import type { NodeAgentAuthorizer } from './authorization.js';
import { PPROF_PREFIX, serveDebugFlagV, servePprof } from '../../core/server/debug/index.js';
import { healthAnswer } from './health.js';
import { podList } from './pod-list.js';
import { nodeRequestAttributes } from './request-attributes.js';
import { goRequestPath } from '../../core/server/url-path.js';
import { httpError, jsonBody, methodNotAllowed, notFound, restfulError } from './responses.js';
import { LOGS_PREFIX, serveSystemLogs, type SystemLogOptions } from './system-logs.js';
import { sendMetrics } from '../../core/metrics/serve.js';
import { serveSlis, type HealthSlis } from '../../core/metrics/health-slis.js';

export interface RouteDeps {
  readonly agent: NodeAgentContext;
  /** The subsystem's logger (a child of the agent's). */
  readonly log: Logger;
  readonly logs: Omit<SystemLogOptions, 'query'>;
  /** Aborts when the subsystem stops (ends CPU profiles early). */
  readonly shutdown: AbortSignal;
  /** The health checks' SLIs, shared by the three servers. */
  readonly slis: HealthSlis;
}

/** What the read-only and health servers need. */
export type PlainDeps = Pick<RouteDeps, 'agent' | 'log' | 'slis'>;

const DEBUG_DISABLED_PREFIXES = ['/run/', '/exec/', '/attach/', '/portForward/', '/containerLogs/', '/runningpods/', PPROF_PREFIX, LOGS_PREFIX];

function baseApp(log: Logger): Koa {
  const app = new (koaClass())();
  app.proxy = false;
  app.silent = true;
  app.use(goRequestPath);
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (e) {
      log.error('internal error serving request', { method: ctx.method, path: ctx.path, error: e instanceof Error ? e.message : String(e) });
      if (!ctx.headerSent) httpError(ctx, 500, 'Internal Server Error');
    }
  });
  return app;
}

async function serveHealth(ctx: Koa.Context, { agent, log, slis }: PlainDeps): Promise<boolean> {
  const answer = await healthAnswer(agent.healthChecks, ctx.path, new URLSearchParams(ctx.querystring), log, slis);
  if (!answer) return false;
  ctx.status = answer.code;
  if (answer.nosniff) ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.type = 'text/plain; charset=utf-8';
  ctx.body = answer.body;
  return true;
}

function servePods(ctx: Koa.Context, agent: NodeAgentContext): void {
  if (ctx.method !== 'GET') return methodNotAllowed(ctx);
  jsonBody(ctx, podList(agent.staticPods.get()));
}

/**
 * InstallAuthNotRequiredHandlers: what the secure and the read-only server both serve. /metrics is
 * legacyregistry's promhttp handler and /metrics/slis SLIMetricsWithReset, both mounted on exact
 * paths and answering any method (a DELETE of /metrics/slis empties it).
 */
async function serveCommon(ctx: Koa.Context, d: PlainDeps): Promise<boolean> {
  if (await serveHealth(ctx, d)) return true;
  if (ctx.path === '/pods') { servePods(ctx, d.agent); return true; }
  if (ctx.path === '/metrics') { sendMetrics(ctx, d.agent.metrics.expose()); return true; }
  if (ctx.path === '/metrics/slis') { serveSlis(ctx, d.slis, true); return true; }
  return false;
}

async function serveDebugging(ctx: Koa.Context, d: RouteDeps): Promise<boolean> {
  const c = d.agent.config;
  const path = ctx.path;
  if (!c.enableDebuggingHandlers) {
    if (!DEBUG_DISABLED_PREFIXES.some((p) => path.startsWith(p))) return false;
    httpError(ctx, 405, 'Debug endpoints are disabled.');
    return true;
  }
  if (path.startsWith(LOGS_PREFIX)) {
    if (!c.enableSystemLogHandler) httpError(ctx, 405, 'logs endpoint is disabled.');
    else if (ctx.method !== 'GET') methodNotAllowed(ctx);
    else await serveSystemLogs(ctx, { ...d.logs, query: c.enableSystemLogQuery });
    return true;
  }
  if (path.startsWith(PPROF_PREFIX)) {
    if (!c.enableProfilingHandler) httpError(ctx, 405, 'profiling endpoint is disabled.');
    else if (ctx.method !== 'GET') methodNotAllowed(ctx);
    else await servePprof(ctx, d.shutdown);
    return true;
  }
  if (path === '/debug/flags/v') {
    if (!c.enableDebugFlagsHandler) httpError(ctx, 405, 'flags endpoint is disabled.');
    else await serveDebugFlagV(ctx, d.log);
    return true;
  }
  if (path === CONFIGZ_PATH) {
    writeConfigz(ctx, configz(c));
    return true;
  }
  if (path.startsWith('/runningpods/')) {
    // What the container runtime runs: there is none, so nothing.
    if (ctx.method !== 'GET') methodNotAllowed(ctx);
    else jsonBody(ctx, podList([]));
    return true;
  }
  return false;
}

export function createSecureApp(d: RouteDeps & { readonly authenticator: DelegatingAuthenticator; readonly authorizer: NodeAgentAuthorizer }): Koa {
  const log = d.log;
  const app = baseApp(log);
  const fineGrained = d.agent.gates.enabled('KubeletFineGrainedAuthz');
  app.use(async (ctx, next) => {
    const auth = await d.authenticator.authenticate(ctx.req);
    if (!('user' in auth)) {
      // The nodeagent's InstallAuthFilter line for the union's error: any credential refused (a bad
      // token, a certificate that does not verify, a review that failed); with none presented, plat's own.
      if (auth.error !== undefined) log.error('Unable to authenticate the request due to an error', { err: auth.error });
      else logUnauthenticated(log, ctx);
      return restfulError(ctx, 401, 'Unauthorized');
    }
    const attrs = nodeRequestAttributes(auth.user, ctx.method, ctx.path, d.agent.nodeName, fineGrained);
    const who = `user=${auth.user.name}, verb=${attrs[0]!.verb}, resource=${attrs[0]!.resource}`;
    let allowed = false;
    for (const a of attrs) {
      let decision;
      try {
        decision = await d.authorizer.authorize(a);
      } catch (e) {
        log.error('Authorization error', { err: goClientErrorText(e), user: a.user.name, verb: a.verb, resource: a.resource, subresource: a.subresource });
        return restfulError(ctx, 500, `Authorization error (${who}, subresource=${a.subresource})`);
      }
      if (decision?.decision === 'allow') { allowed = true; break; }
    }
    if (!allowed) {
      const subresources = attrs.map((a) => a.subresource);
      log.v(2).info('Forbidden', { user: auth.user.name, verb: attrs[0]!.verb, resource: attrs[0]!.resource, 'subresource(s)': subresources });
      return restfulError(ctx, 403, `Forbidden (${who}, subresource(s)=[${subresources.join(' ')}])\n`);
    }
    log.v(5).info('Node request attributes', { user: auth.user.name, verb: attrs[0]!.verb, path: ctx.path });
    await next();
  });
  app.use(async (ctx) => {
    if (await serveCommon(ctx, d)) return;
    if (await serveDebugging(ctx, d)) return;
    notFound(ctx);
  });
  return app;
}

export function createReadOnlyApp(d: PlainDeps): Koa {
  const app = baseApp(d.log);
  app.use(async (ctx) => {
    if (await serveCommon(ctx, d)) return;
    notFound(ctx);
  });
  return app;
}

export function createHealthApp(d: PlainDeps): Koa {
  const app = baseApp(d.log);
  app.use(async (ctx) => {
    if (await serveHealth(ctx, d)) return;
    // A plain net/http ServeMux, as upstream's health server is.
    httpError(ctx, 404, '404 page not found');
  });
  return app;
}
