// /healthz on the node agent's servers: `ping` and every check the subsystems added to the
// context (read per request: subsystems may add theirs while they are built), in the healthz
// handler's plain-text format (`ok`; `?verbose` lists the checks; `?exclude=`; /healthz/<check>).
// Upstream's `log` and `syncloop` checks watch klog's flushing and the pod sync loop, neither of
// which plat has.
import type { HealthCheck as AgentCheck } from '../../core/nodeagent/context.js';
import type { Logger } from '../../core/log.js';
import { HealthChecks, type HealthAnswer } from '../../core/server/health.js';
import { isSubpath } from './request-attributes.js';

export async function healthAnswer(checks: readonly AgentCheck[], path: string, query: URLSearchParams, log: Logger): Promise<HealthAnswer | undefined> {
  if (!isSubpath(path, '/healthz')) return undefined;
  const all = new HealthChecks({ logger: log.child('healthz') });
  all.add({ name: 'ping', check: async () => {} }, ['healthz']);
  for (const c of checks) all.add({ name: c.name, check: async () => { await c.check(); } }, ['healthz']);
  return all.serve(path, query);
}
