// /healthz on the node agent's servers: `ping` and every check the subsystems added to the
// context (read per request: subsystems may add theirs while they are built), in the healthz
// handler's plain-text format (`ok`; `?verbose` lists the checks; `?exclude=`; /healthz/<check>).
// Upstream's `log` and `syncloop` checks watch klog's flushing and the pod sync loop, neither of
// which plat has.
import type { HealthCheck as AgentCheck } from '../../core/nodeagent/context.js';
import type { Logger } from '../../core/log.js';
import type { HealthSlis } from '../../core/metrics/health-slis.js';
import { HealthChecks, type HealthAnswer } from '../../core/server/health.js';
import { isSubpath } from './request-attributes.js';

/** `slis`: told each check /healthz evaluates (component-base's healthz handler records every one, on every server). */
export async function healthAnswer(checks: readonly AgentCheck[], path: string, query: URLSearchParams, log: Logger, slis: HealthSlis): Promise<HealthAnswer | undefined> {
  if (!isSubpath(path, '/healthz')) return undefined;
  const all = new HealthChecks({ logger: log.child('healthz') });
  all.observeWith((check, endpoint, status) => slis.observe(check, endpoint, status));
  all.add({ name: 'ping', check: async () => {} }, ['healthz']);
  for (const c of checks) all.add({ name: c.name, check: async () => { await c.check(); } }, ['healthz']);
  return all.serve(path, query);
}
