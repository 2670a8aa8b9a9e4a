// The metrics of one component instance (a `plat controller-manager` host): its parts record into
// it, the plugin serving /metrics exposes it. Keyed by the host, as componentHealthChecks is, so
// that roles booted side by side in one process (tests) never share figures.
import { versionInfo } from '../version.js';
import { registerControllerManagerMetrics } from './controllers.js';
import { leaderElectionMetrics } from './leader-election.js';
import { registerProcessMetrics } from './process.js';
import { MetricsRegistry } from './registry.js';
import { restClientMetrics } from './rest-client.js';
import { registerWorkqueueMetrics } from './workqueue.js';

const registries = new WeakMap<object, MetricsRegistry>();

/**
 * The registry of `host`, made on first use with every family at once (the process figures
 * client_golang always adds, and the work queue, leader election, REST client and controller
 * families upstream registers at init), so what it lists, registered_metrics_total among it,
 * does not change when a standby starts leading.
 */
export function componentMetrics(host: { readonly version: string }): MetricsRegistry {
  let registry = registries.get(host);
  if (!registry) {
    const { major, minor } = versionInfo(host.version);
    registry = new MetricsRegistry(`${major}.${minor}`);
    registerProcessMetrics(registry);
    registerWorkqueueMetrics(registry);
    leaderElectionMetrics(registry);
    restClientMetrics(registry);
    registerControllerManagerMetrics(registry);
    registries.set(host, registry);
  }
  return registry;
}
