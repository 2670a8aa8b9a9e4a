// What one admission request's dispatch needs besides the webhooks: namespace labels, the
// resource's schema (to re-decode patched objects), the authorizer for CEL checks, the HTTPS
// agents and a logger.
import type { AdmissionRequest } from '../../core/admission/request.js';
import { authorize } from '../../core/authz/authorize.js';
import type { Host } from '../../core/host.js';
import type { Logger } from '../../core/log.js';
import type { AdmissionMetrics } from '../../core/metrics/apiserver-admission.js';
import { servingApiserverMetrics } from '../../core/metrics/apiserver.js';
import type { JsonSchema } from '../../core/registry/resource.js';
import { servedResources, servedStore } from '../../core/registry/stores.js';
import { AuthorizerSession } from './cel/authz-library.js';
import type { AgentPool } from './client.js';
import type { NamespaceLabels } from './selectors.js';

export interface DispatchContext {
  readonly logger: Logger;
  readonly agents: AgentPool;
  readonly namespaceLabels: NamespaceLabels;
  readonly session: AuthorizerSession;
  /** The API server's admission metrics, when it keeps them. */
  readonly metrics?: AdmissionMetrics;
  schema(req: AdmissionRequest): JsonSchema | undefined;
  /** Asks the authorizer chain every pending CEL check of the session. */
  resolvePending(): Promise<void>;
}

export function dispatchContext(host: Host, req: AdmissionRequest, logger: Logger, agents: AgentPool): DispatchContext {
  const session = new AuthorizerSession(req.user);
  const metrics = servingApiserverMetrics(host)?.admission;
  return {
    logger, agents, session, ...(metrics ? { metrics } : {}),
    namespaceLabels: async (namespace) => {
      const namespaces = servedStore(host, '', 'v1', 'namespaces');
      const kv = namespaces ? await namespaces.storage.get(namespaces.keyFor('', namespace)) : undefined;
      if (!kv) return undefined;
      return (kv.value as { metadata?: { labels?: Record<string, string> } }).metadata?.labels ?? {};
    },
    schema: (r) => servedResources(host)?.get(r.group, r.version, r.resource)?.schema,
    resolvePending: async () => {
      const pending = [...session.pending.entries()];
      session.pending.clear();
      await Promise.all(pending.map(async ([key, a]) => {
        try {
          const d = await authorize(host, {
            user: a.user, verb: a.verb, isResourceRequest: a.resourceRequest, path: a.path, apiGroup: a.apiGroup,
            apiVersion: '*', resource: a.resource, subresource: a.subresource, namespace: a.namespace, name: a.name,
          });
          const decided = d?.decision === 'allow' || d?.decision === 'deny' ? d.decision : undefined;
          session.answers.set(key, { decision: decided ?? 'noopinion', reason: d?.reason ?? '', error: '' });
        } catch (e) {
          session.answers.set(key, { decision: 'noopinion', reason: '', error: e instanceof Error ? e.message : String(e) });
        }
      }));
    },
  };
}
