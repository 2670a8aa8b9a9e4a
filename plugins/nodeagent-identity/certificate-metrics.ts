// The certificate managers' families, as the kubelet registers them (1.35, all ALPHA): the client
// manager's (cmd/kubelet's buildKubeletClientConfig and NewKubeletClientCertificateManager, only
// with rotateCertificates) and the serving one's (NewKubeletServerCertificateManager, only with
// serverTLSBootstrap). The TTLs are read when scraped, as upstream's GaugeFuncs: the seconds until
// the NotAfter of the manager's current certificate, truncated, +Inf while it has none (none issued
// yet, or expired: Current() is nil then, whatever the help text says about negative values).
import type { MetricsRegistry } from '../../core/metrics/registry.js';
import type { StoredPair } from '../../core/client/certificate/store.js';

export interface ManagerMetrics {
  readonly renewFailures: { inc(): void };
  readonly rotationAge?: { observe(seconds: number): void };
}

/** Upstream's rotation histogram buckets: a minute, an hour, 4 hours, a day, a week, a month, 3 and 6 months, a year, 4 years. */
const ROTATION_BUCKETS = [60, 3600, 14400, 86400, 604800, 2592000, 7776000, 15552000, 31104000, 124416000];

function ttl(registry: MetricsRegistry, name: string, help: string, current: () => StoredPair | undefined, now: () => Date): void {
  registry.collector('gauge', { name, help }, () => {
    const c = current();
    return [[[], c ? Math.trunc((c.notAfter.getTime() - now().getTime()) / 1000) : Infinity]];
  });
}

export function clientCertificateMetrics(registry: MetricsRegistry, current: () => StoredPair | undefined, now: () => Date): ManagerMetrics {
  const renewFailures = registry.counter({ name: 'nodeagent_certificate_manager_client_expiration_renew_errors', help: 'Counter of certificate renewal errors.' }).labels();
  ttl(registry, 'nodeagent_certificate_manager_client_ttl_seconds', 'Gauge of the TTL (time-to-live) of the node agent\'s client certificate. '
    + 'The value is in seconds until certificate expiry (negative if already expired). If client certificate is invalid or unused, the value will be +INF.', current, now);
  return { renewFailures };
}

export function servingCertificateMetrics(registry: MetricsRegistry, current: () => StoredPair | undefined, now: () => Date): ManagerMetrics {
  const renewFailures = registry.counter({ name: 'nodeagent_server_expiration_renew_errors', help: 'Counter of certificate renewal errors.' }).labels();
  const rotationAge = registry.histogram({
    name: 'nodeagent_certificate_manager_server_rotation_seconds', help: 'Histogram of the number of seconds the previous certificate lived before being rotated.',
    buckets: ROTATION_BUCKETS,
  }).labels();
  ttl(registry, 'nodeagent_certificate_manager_server_ttl_seconds', 'Gauge of the shortest TTL (time-to-live) of the node agent\'s serving certificate. '
    + 'The value is in seconds until certificate expiry (negative if already expired). If serving certificate is invalid or unused, the value will be +INF.', current, now);
  return { renewFailures, rotationAge };
}
