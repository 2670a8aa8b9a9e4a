// The API server's metrics, per host as componentMetrics keeps the controller manager's: its own
// registry, so that in `plat all` (one host, both roles) /metrics on the API server's port lists
// the API server's families only, as kube-apiserver's does; the embedded controllers record nothing
// (there is no controller-manager port in `plat all`). Registered at once: client_golang's
// process collector, the request, long-running, watch, authentication, authorization, admission
// and audit families, the max-in-flight and termination ones, the encryption transformations, the
// authentication config's reloads, and apiserver_storage_objects, read when scraped from whatever the server set as its
// source. The health checks' SLIs are a registry apart (/metrics/slis), as upstream's slis.Registry.
import { versionInfo } from '../version.js';
import { AdmissionMetrics } from './apiserver-admission.js';
import { AuditMetrics, type AuditErrorCounter } from './apiserver-audit.js';
import { AuthMetrics } from './apiserver-auth.js';
import { ConfigReloadMetrics } from './apiserver-config-reload.js';
import { WatchMetrics } from './apiserver-watch.js';
import { HealthSlis } from './health-slis.js';
import { InFlightMetrics, TerminationMetrics } from './apiserver-inflight.js';
import { RequestMetrics } from './apiserver-requests.js';
import { registerProcessMetrics } from './process.js';
import { TransformationMetrics } from './apiserver-storage-transformation.js';
import { MetricsRegistry, type CollectedSample } from './registry.js';

export interface ApiServerMetrics {
  readonly registry: MetricsRegistry;
  readonly requests: RequestMetrics;
  readonly auth: AuthMetrics;
  readonly admission: AdmissionMetrics;
  readonly watches: WatchMetrics;
  readonly audit: AuditMetrics;
  /** What the max-in-flight filter records (--enable-priority-and-fairness=false). */
  readonly inFlight: InFlightMetrics;
  /** Requests ended by the server: the max-in-flight 429 and the request deadline's 504. */
  readonly terminations: TerminationMetrics;
  /** Encryption at rest's reads and writes (apiserver_storage_transformation_*). */
  readonly transformations: TransformationMetrics;
  /** apiserver_authentication_config_controller_automatic_reload*: --authentication-config's reloads. */
  readonly authenticationConfig: ConfigReloadMetrics;
  /** kubernetes_healthcheck(s_total), recorded by /healthz, /livez and /readyz, served at /metrics/slis. */
  readonly slis: HealthSlis;
  /** The stored objects per resource (`plural` or `plural.group`); -1 where counting failed. */
  storageObjects: () => Promise<Iterable<readonly [resource: string, count: number]>>;
  /** Counts the stored objects now, for the scrape about to be exposed. */
  readonly refreshStorageObjects: () => Promise<void>;
}

const made = new WeakMap<object, ApiServerMetrics>();

export function apiserverMetrics(host: { readonly version: string }): ApiServerMetrics {
  let m = made.get(host);
  if (m) return m;
  const { major, minor } = versionInfo(host.version);
  const registry = new MetricsRegistry(`${major}.${minor}`);
  registerProcessMetrics(registry);
  const requests = new RequestMetrics(registry);
  const auth = new AuthMetrics(registry);
  const admission = new AdmissionMetrics(registry);
  const watches = new WatchMetrics(registry);
  const audit = new AuditMetrics(registry);
  let counted: CollectedSample[] = [];
  const metrics: ApiServerMetrics = {
    registry, requests, auth, admission, watches, audit, inFlight: new InFlightMetrics(registry), terminations: new TerminationMetrics(registry),
    transformations: new TransformationMetrics(registry),
    authenticationConfig: new ConfigReloadMetrics(registry, 'authentication_config_controller', 'authentication'), slis: new HealthSlis(), storageObjects: async () => [],
    refreshStorageObjects: async () => { counted = [...await metrics.storageObjects()].map(([resource, n]) => [[resource], n] as const); },
  };
  // etcd3's objectCounts (STABLE in 1.32). The registry reads synchronously: the handler calls
  // refreshStorageObjects first, so each scrape sees the counts of that moment.
  registry.collector('gauge', {
    name: 'apiserver_storage_objects', stabilityLevel: 'STABLE', labelNames: ['resource'],
    help: 'Number of stored objects at the time of last check split by kind. In case of a fetching error, the value will be -1.',
  }, () => counted);
  made.set(host, metrics);
  return metrics;
}

/**
 * The host's API server metrics if its API server made them (it serves /metrics), else undefined:
 * for code that records into them (admission webhooks) but must not create them on a host that
 * serves none.
 */
export function servingApiserverMetrics(host: object): ApiServerMetrics | undefined {
  return made.get(host);
}

/**
 * The host's apiserver_audit_error_total, looked up when an error happens: a backend is built
 * before the API server makes its metrics, and a host that serves no /metrics counts nothing.
 */
export const auditErrorCounter = (host: object): AuditErrorCounter => (plugin, events) => made.get(host)?.audit.pluginError(plugin, events);
