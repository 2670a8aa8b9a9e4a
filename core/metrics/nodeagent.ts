// The node agent's registry, as the kubelet's legacyregistry holds it: the process figures, the
// REST client's families (its API clients record into them), the meta counters, and
// `nodeagent_node_name{node}` set to 1 at start-up. The identity subsystem adds the certificate
// managers' families (plugins/nodeagent-identity/certificate-metrics.ts). One per agent, kept on
// its NodeAgentContext: agents booted side by side in one process (tests) never share figures.
import { registerProcessMetrics } from './process.js';
import { MetricsRegistry } from './registry.js';
import { restClientMetrics } from './rest-client.js';
import { DEFAULT_METRICS_SETTINGS } from './settings.js';

/**
 * `currentVersion`: the `major.minor` the agent answers as; `showHidden`: showHiddenMetricsForVersion
 * was given (the kubelet has no --disabled-metrics or allow-list flags, only that field).
 */
export function nodeAgentMetrics(nodeName: string, currentVersion: string, showHidden: boolean): MetricsRegistry {
  const registry = new MetricsRegistry(currentVersion);
  registry.configure({ ...DEFAULT_METRICS_SETTINGS, showHidden });
  registerProcessMetrics(registry);
  restClientMetrics(registry);
  registry.gauge({ name: 'nodeagent_node_name', help: 'The node\'s name. The count is always 1.', labelNames: ['node'] }).labels(nodeName).set(1);
  return registry;
}
