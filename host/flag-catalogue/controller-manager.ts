// Every option of the controller manager as spec 02 lists them ("Options"), so that --help and the
// accepted flags match the spec whichever plugins implement them: a flag no plugin defines is
// listed and refused at start-up. Defaults are the spec's, in parsed form (durations in
// milliseconds); help texts are the spec's Effect column; sections are its table headings.
// `--version` and `-h, --help` belong to the host and are not listed here.
import type { FlagSpec, FlagType } from '../../core/flags/types.js';
import { parseDuration } from '../../core/flags/duration.js';

/** The spec's table headings, in the spec's order. */
export const CONTROLLER_MANAGER_FLAG_SECTIONS = [
  'Serving, authentication and authorization of its own endpoint',
  'Client connection to the API server',
  'Leader election and process',
  'Certificate signing',
  'Concurrency',
  'Endpoints, networking and cloud',
  'Nodes, storage, autoscaling and others',
] as const;

type Section = (typeof CONTROLLER_MANAGER_FLAG_SECTIONS)[number];
type Extra = Pick<FlagSpec, 'shorthand' | 'deprecated' | 'unsupported' | 'enum' | 'validate' | 'typeName'>;
type Row = readonly [name: string, type: FlagType, def: unknown, help: string, extra?: Extra];

function section(title: Section, rows: readonly Row[]): FlagSpec[] {
  return rows.map(([name, type, def, help, extra]) =>
    Object.freeze({ name, type, help, section: title, ...(def !== undefined ? { default: def } : {}), ...extra }),
  );
}

const ms = parseDuration;
const nonNegative = (v: unknown) => (typeof v === 'number' && v >= 0 ? undefined : 'must not be negative');

/** The spec's (and upstream's) int32 options, named so in --help. */
const int32 = { typeName: 'int32' } as const;
const concurrency = (name: string, def: number, help = ''): Row =>
  [name, 'int', def, help || 'Number of objects synced concurrently.', { ...int32, validate: nonNegative }];
const signerPair = (prefix: string, signer: string): Row[] => {
  const help = `CA and key for signer \`${signer}\`; when given, the generic pair must not be set.`;
  return [[`${prefix}-cert-file`, 'string', undefined, help], [`${prefix}-key-file`, 'string', undefined, help]];
};

export const controllerManagerFlagCatalogue: readonly FlagSpec[] = Object.freeze([
  ...section('Serving, authentication and authorization of its own endpoint', [
    ['secure-port', 'int', 10257, 'HTTPS port; 0 disables HTTPS.'],
    ['bind-address', 'string', '0.0.0.0', 'Listen address; blank or unspecified means all interfaces and families.'],
    ['cert-dir', 'string', undefined, 'Certificate directory; ignored if cert and key files given.'],
    ['tls-cert-file', 'string', undefined, 'Default certificate and key; if absent with HTTPS on, a self-signed pair is generated into --cert-dir.'],
    ['tls-private-key-file', 'string', undefined, 'Default certificate and key; if absent with HTTPS on, a self-signed pair is generated into --cert-dir.'],
    ['tls-sni-cert-key', 'stringArray', undefined, "Certificate and key paths optionally suffixed with `:` and domain patterns; same matching precedence as the API server's."],
    ['tls-cipher-suites', 'strings', undefined, 'Allowed suites; omitted means runtime defaults.'],
    ['tls-min-version', 'string', undefined, 'VersionTLS10, VersionTLS11, VersionTLS12 or VersionTLS13.'],
    ['disable-http2-serving', 'bool', false, 'Disable HTTP/2.'],
    ['http2-max-streams-per-connection', 'int', undefined, '0 uses runtime default.', { validate: nonNegative }],
    ['permit-address-sharing', 'bool', false, 'Address and port reuse when binding.'],
    ['permit-port-sharing', 'bool', false, 'Address and port reuse when binding.'],
    ['client-ca-file', 'string', undefined, 'Client certificates signed by these authorities authenticate as their CommonName.'],
    ['authentication-kubeconfig', 'string', undefined, 'Connection settings file to the core server with rights to create token reviews; optional; empty means all token requests are anonymous and no client CA is looked up.'],
    ['authentication-skip-lookup', 'bool', undefined, 'If false, the authentication connection file is used to look up missing authentication configuration.'],
    ['authentication-tolerate-lookup-failure', 'bool', undefined, 'If true, lookup failures are not fatal; may result in all requests treated anonymous.'],
    ['authentication-token-webhook-cache-ttl', 'duration', ms('10s'), 'Cache of webhook token authenticator responses.'],
    ['authorization-kubeconfig', 'string', undefined, 'Connection settings file with rights to create access reviews; optional; empty means all requests not skipped are forbidden.'],
    ['authorization-always-allow-paths', 'strings', ['/healthz', '/readyz', '/livez'], 'Paths authorized without contacting the core server.'],
    ['authorization-webhook-cache-authorized-ttl', 'duration', ms('10s'), 'Cache of authorized responses.'],
    ['authorization-webhook-cache-unauthorized-ttl', 'duration', ms('10s'), 'Cache of unauthorized responses.'],
    ['requestheader-client-ca-file', 'string', undefined, 'Root bundle verifying client certificates before trusting identity headers.'],
    ['requestheader-allowed-names', 'strings', undefined, 'Allowed certificate common names; empty allows any validated by the CA file.'],
    ['requestheader-username-headers', 'strings', ['x-remote-user'], 'Request headers inspected for usernames.'],
    ['requestheader-group-headers', 'strings', ['x-remote-group'], 'Request headers inspected for groups.'],
    ['requestheader-extra-headers-prefix', 'strings', ['x-remote-extra-'], 'Request header prefixes inspected for extra user information.'],
    ['requestheader-uid-headers', 'strings', undefined, '`X-Remote-Uid` suggested; requires feature RemoteRequestHeaderUID.'],
  ]),
  ...section('Client connection to the API server', [
    ['platconfig', 'string', undefined, 'Connection settings file (authorization and master location).'],
    ['master', 'string', undefined, 'API server address; overrides the settings file.'],
    ['plat-api-qps', 'float32', 20, 'Queries per second.'],
    ['plat-api-burst', 'int', 30, 'Burst.', int32],
    ['plat-api-content-type', 'string', 'application/vnd.platform.protobuf', 'Request content type.'],
  ]),
  ...section('Leader election and process', [
    ['leader-elect', 'bool', true, 'Acquire leadership before running the main loop.'],
    ['leader-elect-lease-duration', 'duration', ms('15s'), 'Wait by non-leaders after observing a renewal before taking over an unrenewed slot.'],
    ['leader-elect-renew-deadline', 'duration', ms('10s'), 'Interval of renewal attempts by the acting leader; must be less than the lease duration.'],
    ['leader-elect-retry-period', 'duration', ms('2s'), 'Wait between acquisition and renewal attempts.'],
    ['leader-elect-resource-lock', 'string', 'leases', 'Lock object type; only `leases` supported.'],
    ['leader-elect-resource-name', 'string', 'plat-controller-manager', 'Lock object name.'],
    ['leader-elect-resource-namespace', 'string', 'plat-system', 'Lock object namespace.'],
    ['enable-leader-migration', 'bool', undefined, 'Enable controller leader migration.'],
    ['leader-migration-config', 'string', undefined, 'Path of a LeaderMigrationConfiguration file (group controllermanager.config.platform, version v1alpha1); empty uses the default configuration.'],
    ['controllers', 'strings', ['*'], '`*` enables all on-by-default controllers, `foo` enables foo, `-foo` disables foo.'],
    ['controller-start-interval', 'duration', undefined, 'Interval between starting controller managers.'],
    ['controller-shutdown-timeout', 'duration', ms('10s'), 'Wait for controllers to stop before exit.'],
    ['use-service-account-credentials', 'bool', undefined, 'Individual service account credentials per controller.'],
    ['profiling', 'bool', true, 'Profiling at `host:port/debug/pprof/`.'],
    ['contention-profiling', 'bool', undefined, 'Block profiling when profiling is on. (not supported: V8 has no block profile; only false is accepted)'],
    ['min-resync-period', 'duration', ms('12h0m0s'), 'Reflector resync period, random between this and twice this.'],
    ['feature-gates', 'map', undefined, 'Feature gates (component:key=value pairs).'],
    ['emulated-version', 'strings', undefined, 'Emulated version.'],
    ['min-compatibility-version', 'strings', undefined, 'Minimum compatible version.'],
    ['allow-metric-labels', 'stringToString', undefined, 'Allow-list keyed `<MetricName>,<LabelName>` with comma-separated allowed values.'],
    ['allow-metric-labels-manifest', 'string', undefined, 'File with the same format; the flag overrides it.'],
    ['disabled-metrics', 'strings', undefined, 'Fully qualified metrics to disable; beats showing hidden metrics.'],
    ['show-hidden-metrics-for-version', 'string', undefined, 'Previous minor version `<major>.<minor>` whose hidden metrics are shown.'],
    ['log-flush-frequency', 'duration', ms('5s'), 'Maximum interval between log flushes.'],
    ['logging-format', 'string', 'text', 'Only `text`.', { enum: ['text'] }],
    ['log-text-info-buffer-size', 'quantity', undefined, 'Alpha; needs feature LoggingAlphaOptions.'],
    ['log-text-split-stream', 'bool', undefined, 'Alpha; needs feature LoggingAlphaOptions.'],
    ['v', 'level', undefined, 'Verbosity.', { shorthand: 'v' }],
    ['vmodule', 'string', undefined, 'Per-file verbosity (text format), pattern=N,...'],
  ]),
  ...section('Certificate signing', [
    ['cluster-signing-cert-file', 'string', undefined, 'PEM CA certificate (X509) and RSA, ECDSA or Ed25519 private key for all cluster-scoped certificates; if given, no more specific --cluster-signing-* option may be given.'],
    ['cluster-signing-key-file', 'string', undefined, 'PEM CA certificate (X509) and RSA, ECDSA or Ed25519 private key for all cluster-scoped certificates; if given, no more specific --cluster-signing-* option may be given.'],
    ...signerPair('cluster-signing-plat-apiserver-client', 'platform/apiserver-client'),
    ...signerPair('cluster-signing-nodeagent-client', 'platform/apiserver-client-nodeagent'),
    ...signerPair('cluster-signing-nodeagent-serving', 'platform/nodeagent-serving'),
    ...signerPair('cluster-signing-legacy-unknown', 'platform/legacy-unknown'),
    ['cluster-signing-duration', 'duration', ms('8760h0m0s'), 'Maximum lifetime of issued certificates; a request may ask for less through `spec.expirationSeconds`.'],
    ['root-ca-file', 'string', undefined, 'Root CA (PEM bundle) included in service account token secrets.'],
    ['service-account-private-key-file', 'string', undefined, 'Enables legacy secret-based tokens; PEM RSA or ECDSA key signing service account tokens.'],
    ['legacy-service-account-token-clean-up-period', 'duration', ms('8760h0m0s'), 'Time since last use before a legacy token may be deleted.'],
  ]),
  ...section('Concurrency', [
    concurrency('concurrent-cron-job-syncs', 5),
    concurrency('concurrent-daemonset-syncs', 2),
    concurrency('concurrent-deployment-syncs', 5),
    concurrency('concurrent-device-taint-eviction-syncs', 8, 'Evictions and status updates synced concurrently.'),
    concurrency('concurrent-endpoint-syncs', 5),
    concurrency('concurrent-ephemeralvolume-syncs', 5),
    concurrency('concurrent-gc-syncs', 20),
    concurrency('concurrent-horizontal-pod-autoscaler-syncs', 5),
    concurrency('concurrent-job-syncs', 5),
    concurrency('concurrent-namespace-syncs', 10),
    concurrency('concurrent-rc-syncs', 5),
    concurrency('concurrent-replicaset-syncs', 5),
    concurrency('concurrent-resource-quota-syncs', 5),
    concurrency('concurrent-service-endpoint-syncs', 5, 'Endpoint slices synced concurrently.'),
    concurrency('concurrent-service-syncs', 1),
    concurrency('concurrent-serviceaccount-token-syncs', 5),
    concurrency('concurrent-statefulset-syncs', 5),
    concurrency('concurrent-ttl-after-finished-syncs', 5),
    concurrency('concurrent-validating-admission-policy-status-syncs', 5),
    concurrency('mirroring-concurrent-service-endpoint-syncs', 5),
  ]),
  ...section('Endpoints, networking and cloud', [
    ['endpoint-updates-batch-period', 'duration', undefined, 'Delay of pod-change processing to batch endpoint updates.'],
    ['endpointslice-updates-batch-period', 'duration', undefined, 'Same for endpoint slices.'],
    ['mirroring-endpointslice-updates-batch-period', 'duration', undefined, 'Same for the mirroring controller.'],
    ['max-endpoints-per-slice', 'int', 100, 'Maximum endpoints per slice.', int32],
    ['mirroring-max-endpoints-per-subset', 'int', 1000, 'Maximum endpoints mirrored per subset.', int32],
    ['allocate-node-cidrs', 'bool', undefined, 'Allocate pod CIDRs and set them on the cloud provider; requires --cluster-cidr.'],
    ['cluster-cidr', 'string', undefined, 'Pod CIDR; only used with --allocate-node-cidrs=true.'],
    ['service-cluster-ip-range', 'string', undefined, 'Service CIDR; only used with --allocate-node-cidrs=true.'],
    ['cidr-allocator-type', 'string', 'RangeAllocator', 'Allocator kind.'],
    ['node-cidr-mask-size', 'int', undefined, 'Node CIDR mask; default 24 (IPv4) and 64 (IPv6).', int32],
    ['node-cidr-mask-size-ipv4', 'int', undefined, 'Dual-stack IPv4 mask; default 24.', int32],
    ['node-cidr-mask-size-ipv6', 'int', undefined, 'Dual-stack IPv6 mask; default 64.', int32],
    ['configure-cloud-routes', 'bool', true, 'Configure allocated CIDRs on the cloud provider.'],
    ['route-reconciliation-period', 'duration', ms('10s'), 'Reconcile routes created for nodes.'],
    ['cloud-provider', 'string', undefined, 'Provider; empty none.'],
    ['cloud-config', 'string', undefined, 'Provider configuration file; empty none.'],
    ['external-cloud-volume-plugin', 'string', undefined, 'Plugin when the provider is external (lets node IPAM, volume binder, volume expander and attach/detach controllers work for in-tree providers).'],
    ['cluster-name', 'string', 'platform', 'Instance prefix of the cluster.'],
  ]),
  ...section('Nodes, storage, autoscaling and others', [
    ['node-eviction-rate', 'float32', 0.1, 'Nodes per second whose pods are deleted on failure when the zone is healthy.'],
    ['secondary-node-eviction-rate', 'float32', 0.01, 'Same when the zone is unhealthy; implicitly 0 when cluster size is at or below the large-cluster threshold.'],
    ['large-cluster-size-threshold', 'int', 50, 'Node count from which the cluster counts as large (per zone if several zones).', int32],
    ['unhealthy-zone-threshold', 'float32', 0.55, 'Fraction of not-ready nodes (minimum 3) making a zone unhealthy.'],
    ['node-monitor-grace-period', 'duration', ms('50s'), "Unresponsiveness tolerated for a running node; must be N times the node agent's status update frequency and larger than the sum of the two HTTP/2 ping and read-idle timeout variables."],
    ['node-monitor-period', 'duration', ms('5s'), 'NodeStatus sync period.'],
    ['node-startup-grace-period', 'duration', ms('1m0s'), 'Tolerated unresponsiveness of a starting node.'],
    ['namespace-sync-period', 'duration', ms('5m0s'), 'Namespace lifecycle sync.'],
    ['resource-quota-sync-period', 'duration', ms('5m0s'), 'Quota usage sync.'],
    ['pvclaimbinder-sync-period', 'duration', ms('15s'), 'Volume and claim sync.'],
    ['attach-detach-reconcile-sync-period', 'duration', ms('1m0s'), 'Must exceed one second; raising it may mismatch volumes and pods.'],
    ['disable-attach-detach-reconcile-sync', 'bool', undefined, 'Disable that sync.'],
    ['disable-force-detach-on-timeout', 'bool', undefined, 'Prevent force detach; then non-graceful node shutdown handling must be used for node failure.'],
    ['enable-dynamic-provisioning', 'bool', true, 'Dynamic provisioning.'],
    ['enable-hostpath-provisioner', 'bool', undefined, 'Host-path volumes for testing only.'],
    ['enable-garbage-collector', 'bool', true, 'Must match the API server.'],
    ['flex-volume-plugin-dir', 'string', '/usr/libexec/platform/nodeagent-plugins/volume/exec/', 'Directory for third-party volume plugins.'],
    ['pv-recycler-minimum-timeout-nfs', 'int', 300, 'Minimum ActiveDeadlineSeconds for NFS recycler pod.', int32],
    ['pv-recycler-increment-timeout-nfs', 'int', 30, 'Seconds added per Gi.', int32],
    ['pv-recycler-pod-template-filepath-nfs', 'string', undefined, 'Template pod file.'],
    ['pv-recycler-minimum-timeout-hostpath', 'int', 60, 'Development only.', int32],
    ['pv-recycler-timeout-increment-hostpath', 'int', 30, 'Per Gi; development only.', int32],
    ['pv-recycler-pod-template-filepath-hostpath', 'string', undefined, 'Development only.'],
    ['horizontal-pod-autoscaler-sync-period', 'duration', ms('15s'), 'HPA sync period.'],
    ['horizontal-pod-autoscaler-downscale-stabilization', 'duration', ms('5m0s'), 'No scale-down below any recommendation made in this window.'],
    ['horizontal-pod-autoscaler-tolerance', 'float', 0.1, 'Minimum change from 1.0 of the desired-to-actual ratio to scale.'],
    ['horizontal-pod-autoscaler-cpu-initialization-period', 'duration', ms('5m0s'), 'CPU samples may be skipped after pod start.'],
    ['horizontal-pod-autoscaler-initial-readiness-delay', 'duration', ms('30s'), 'Readiness changes count as initial.'],
    ['terminated-pod-gc-threshold', 'int', 12500, 'Terminated pods kept before collection; 0 or less disables.', int32],
  ]),
]);

/** Sections that belong to the controller manager's own process: its endpoint and API connection. */
const PROCESS_ONLY: readonly string[] = ['Serving, authentication and authorization of its own endpoint', 'Client connection to the API server'];

/**
 * The controller-running part of the catalogue, for `plat all`: everything but the controller
 * manager's own endpoint and API connection (the all-in-one process has neither).
 */
export const embeddedControllerManagerFlagCatalogue: readonly FlagSpec[] = Object.freeze(
  controllerManagerFlagCatalogue.filter((f) => !PROCESS_ONLY.includes(f.section)),
);
