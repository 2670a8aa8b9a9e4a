// The metrics of one component instance (a `plat controller-manager` host): its parts record into
// it, the plugin serving /metrics exposes it. Keyed by the host, as componentHealthChecks is, so
// that roles booted side by side in one process (tests) never share figures.
import { versionInfo } from '../version.js';
import { registerProcessMetrics } from './process.js';
import { MetricsRegistry } from './registry.js';

const registries = new WeakMap<object, MetricsRegistry>();

/** The registry of `host` (made on first use, with the process figures client_golang always adds). */
export function componentMetrics(host: { readonly version: string }): MetricsRegistry {
  let registry = registries.get(host);
  if (!registry) {
    const { major, minor } = versionInfo(host.version);
    registry = new MetricsRegistry(`${major}.${minor}`);
    registerProcessMetrics(registry);
    registries.set(host, registry);
  }
  return registry;
}
