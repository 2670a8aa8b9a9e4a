// --config: a PlatControllerManagerConfiguration file whose Generic, KubeCloudShared,
// CSRSigningController, GarbageCollectorController, LegacySATokenCleaner, NamespaceController, NodeLifecycleController and SAController fields set the flags of the same meaning (the table below), under the command line: a flag given
// there wins over the file. A field whose flag no loaded plugin implements (the signing flags
// without the signing plugin, --profiling, ...) is refused like the flag itself would be, so
// nothing in the file is silently ignored. Every problem names the file and the field.
import { readFileSync } from 'node:fs';
import { yaml } from '../../core/yaml-module.js';
import { GO_YAML } from '../../core/api/go-yaml.js';
import { parseDuration } from '../../core/flags/duration.js';
import { FlagError, type Flags } from '../../core/flags/flag-set.js';
import type { FlagType } from '../../core/flags/types.js';
import { StartupError } from '../../core/plugin.js';
import { CONFIG_API_VERSION, CONFIG_KIND, shapeErrors, UNSUPPORTED_PARTS } from './config-schema.js';
import { yamlErrorText } from '../../core/config/yaml-error-text.js';

/** Field path → the flag it sets. */
export const CONFIG_FIELDS: Readonly<Record<string, string>> = {
  'Generic.Port': 'secure-port',
  'Generic.Address': 'bind-address',
  'Generic.MinResyncPeriod': 'min-resync-period',
  'Generic.ClientConnection.kubeconfig': 'platconfig',
  'Generic.ClientConnection.contentType': 'plat-api-content-type',
  'Generic.ClientConnection.qps': 'plat-api-qps',
  'Generic.ClientConnection.burst': 'plat-api-burst',
  'Generic.ControllerStartInterval': 'controller-start-interval',
  'Generic.LeaderElection.leaderElect': 'leader-elect',
  'Generic.LeaderElection.leaseDuration': 'leader-elect-lease-duration',
  'Generic.LeaderElection.renewDeadline': 'leader-elect-renew-deadline',
  'Generic.LeaderElection.retryPeriod': 'leader-elect-retry-period',
  'Generic.LeaderElection.resourceLock': 'leader-elect-resource-lock',
  'Generic.LeaderElection.resourceName': 'leader-elect-resource-name',
  'Generic.LeaderElection.resourceNamespace': 'leader-elect-resource-namespace',
  'Generic.Controllers': 'controllers',
  'Generic.Debugging.enableProfiling': 'profiling',
  'Generic.Debugging.enableContentionProfiling': 'contention-profiling',
  'Generic.LeaderMigrationEnabled': 'enable-leader-migration',
  'KubeCloudShared.UseServiceAccountCredentials': 'use-service-account-credentials',
  'KubeCloudShared.CloudProvider.Name': 'cloud-provider',
  'KubeCloudShared.CloudProvider.CloudConfigFile': 'cloud-config',
  'KubeCloudShared.ExternalCloudVolumePlugin': 'external-cloud-volume-plugin',
  'KubeCloudShared.RouteReconciliationPeriod': 'route-reconciliation-period',
  'KubeCloudShared.NodeMonitorPeriod': 'node-monitor-period',
  'KubeCloudShared.ClusterName': 'cluster-name',
  'KubeCloudShared.ClusterCIDR': 'cluster-cidr',
  'KubeCloudShared.AllocateNodeCIDRs': 'allocate-node-cidrs',
  'KubeCloudShared.CIDRAllocatorType': 'cidr-allocator-type',
  'KubeCloudShared.ConfigureCloudRoutes': 'configure-cloud-routes',
  'CSRSigningController.ClusterSigningCertFile': 'cluster-signing-cert-file',
  'CSRSigningController.ClusterSigningKeyFile': 'cluster-signing-key-file',
  'CSRSigningController.NodeAgentServingSignerConfiguration.CertFile': 'cluster-signing-nodeagent-serving-cert-file',
  'CSRSigningController.NodeAgentServingSignerConfiguration.KeyFile': 'cluster-signing-nodeagent-serving-key-file',
  'CSRSigningController.NodeAgentClientSignerConfiguration.CertFile': 'cluster-signing-nodeagent-client-cert-file',
  'CSRSigningController.NodeAgentClientSignerConfiguration.KeyFile': 'cluster-signing-nodeagent-client-key-file',
  'CSRSigningController.PlatAPIServerClientSignerConfiguration.CertFile': 'cluster-signing-plat-apiserver-client-cert-file',
  'CSRSigningController.PlatAPIServerClientSignerConfiguration.KeyFile': 'cluster-signing-plat-apiserver-client-key-file',
  'CSRSigningController.LegacyUnknownSignerConfiguration.CertFile': 'cluster-signing-legacy-unknown-cert-file',
  'CSRSigningController.LegacyUnknownSignerConfiguration.KeyFile': 'cluster-signing-legacy-unknown-key-file',
  'CSRSigningController.ClusterSigningDuration': 'cluster-signing-duration',
  'GarbageCollectorController.EnableGarbageCollector': 'enable-garbage-collector',
  'GarbageCollectorController.ConcurrentGCSyncs': 'concurrent-gc-syncs',
  'LegacySATokenCleaner.CleanUpPeriod': 'legacy-service-account-token-clean-up-period',
  'NamespaceController.NamespaceSyncPeriod': 'namespace-sync-period',
  'NamespaceController.ConcurrentNamespaceSyncs': 'concurrent-namespace-syncs',
  'NodeLifecycleController.NodeEvictionRate': 'node-eviction-rate',
  'NodeLifecycleController.SecondaryNodeEvictionRate': 'secondary-node-eviction-rate',
  'NodeLifecycleController.NodeStartupGracePeriod': 'node-startup-grace-period',
  'NodeLifecycleController.NodeMonitorGracePeriod': 'node-monitor-grace-period',
  'NodeLifecycleController.LargeClusterSizeThreshold': 'large-cluster-size-threshold',
  'NodeLifecycleController.UnhealthyZoneThreshold': 'unhealthy-zone-threshold',
  'SAController.ServiceAccountKeyFile': 'service-account-private-key-file',
  'SAController.ConcurrentSATokenSyncs': 'concurrent-serviceaccount-token-syncs',
  'SAController.RootCAFile': 'root-ca-file',
};

/** Fields with no flag at all in plat. */
const NO_FLAG: Readonly<Record<string, string>> = {
  'Generic.ClientConnection.acceptContentTypes': 'plat sends and accepts JSON only',
  'Generic.LeaderMigration': 'leader migration is not implemented by plat',
  'KubeCloudShared.AllowUntaggedCloud': 'plat has no cloud provider',
  'KubeCloudShared.NodeSyncPeriod': 'plat has no cloud provider',
  'NodeLifecycleController.PodEvictionTimeout': 'plat evicts no pods: it runs none',
  'GarbageCollectorController.GCIgnoredResources': "the garbage collector ignores upstream's default (events) only",
};

/**
 * Fields whose zero value upstream's v1alpha1 defaulting replaces (SetDefaults_KubeControllerManagerConfiguration,
 * RecommendedDefaultGenericControllerManagerConfiguration, component-base's leader-election and
 * client-connection defaults with the controller manager's qps 20 and burst 30, and
 * RecommendedDefaultCSRSigningControllerConfiguration): there a zero reads as unset, so its flag keeps
 * its default. `Controllers: []` would otherwise turn every controller off without a word. Only the
 * file's values: a zero given on the command line keeps its meaning.
 */
const ZERO_IS_UNSET: ReadonlySet<string> = new Set([
  'Generic.Address', 'Generic.MinResyncPeriod', 'Generic.Controllers',
  'Generic.ClientConnection.contentType', 'Generic.ClientConnection.qps', 'Generic.ClientConnection.burst',
  'Generic.LeaderElection.leaseDuration', 'Generic.LeaderElection.renewDeadline', 'Generic.LeaderElection.retryPeriod',
  'Generic.LeaderElection.resourceLock', 'CSRSigningController.ClusterSigningDuration', 'KubeCloudShared.NodeMonitorPeriod',
  // RecommendedDefaultNamespaceControllerConfiguration, RecommendedDefaultNodeLifecycleControllerConfiguration.
  'NamespaceController.NamespaceSyncPeriod', 'NamespaceController.ConcurrentNamespaceSyncs',
  // RecommendedDefaultSAControllerConfiguration: ConcurrentSATokenSyncs 0 reads as 5; the cleaner's 0 period as a year.
  'SAController.ConcurrentSATokenSyncs', 'LegacySATokenCleaner.CleanUpPeriod',
  'NodeLifecycleController.NodeStartupGracePeriod', 'NodeLifecycleController.NodeMonitorGracePeriod',
  'GarbageCollectorController.ConcurrentGCSyncs',
]);

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
const isObject = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** YAML/JSON `null` means "not set", as Go's decoder leaves the zero value. */
function withoutNulls(v: Json): Json | undefined {
  if (v === null) return undefined;
  if (Array.isArray(v)) return v;
  if (!isObject(v)) return v;
  const out: Record<string, Json> = {};
  for (const [k, x] of Object.entries(v)) {
    const kept = withoutNulls(x);
    if (kept !== undefined) out[k] = kept;
  }
  return out;
}

/** Go's zero value of a field of flag type `type`: `0`, `""`, `[]`, a duration of 0 (`0s`, `0h0m`). */
function isZero(value: Json, type: FlagType): boolean {
  if (Array.isArray(value)) return value.length === 0;
  if (type === 'duration' && typeof value === 'string') {
    try { return parseDuration(value) === 0; } catch { return false; }
  }
  return value === '' || value === 0;
}

/** The document's set fields, as `[path, value]`, stopping at mapped fields and unsupported parts. */
function setFields(doc: Record<string, Json>): [string, Json][] {
  const out: [string, Json][] = [];
  const walk = (v: Json, path: string) => {
    if (path in CONFIG_FIELDS || path in NO_FLAG || (UNSUPPORTED_PARTS as readonly string[]).includes(path) || !isObject(v)) {
      out.push([path, v]);
      return;
    }
    for (const [k, x] of Object.entries(v)) walk(x, path ? `${path}.${k}` : k);
  };
  for (const [k, v] of Object.entries(doc)) if (k !== 'apiVersion' && k !== 'kind') walk(v, k);
  return out;
}

/** Reads and checks `file`; returns flag values by flag name, with the field each came from. */
export function readControllerManagerConfig(file: string, flags: Flags): Map<string, { path: string; value: Json }> {
  const fail = (problems: string[]) => new StartupError(problems.map((p) => `${file}: ${p}`).join('\n'), 1);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw fail([`cannot read the controller manager configuration: ${err.code === 'ENOENT' ? 'no such file or directory' : err.message}`]);
  }
  let parsed: Json;
  try {
    // Upstream reads it through sigs.k8s.io/yaml: YAML 1.1 scalars (`leaderElect: yes`).
    parsed = yaml().parse(text, GO_YAML) as Json;
  } catch (e) {
    // The yaml package's own text for this names its API (parseAllDocuments), not the problem.
    if ((e as { code?: unknown }).code === 'MULTIPLE_DOCS') throw fail([`holds more than one YAML document (separated by ---); a ${CONFIG_KIND} file holds exactly one`]);
    throw fail([`not valid YAML or JSON: ${yamlErrorText(e)}`]);
  }
  const doc = withoutNulls(parsed ?? null);
  if (!isObject(doc)) throw fail([`expected a ${CONFIG_KIND} mapping`]);
  const { apiVersion, kind } = doc;
  if (apiVersion !== CONFIG_API_VERSION || kind !== CONFIG_KIND) {
    throw fail([`apiVersion ${JSON.stringify(apiVersion ?? '')}, kind ${JSON.stringify(kind ?? '')}: expected apiVersion ${CONFIG_API_VERSION}, kind ${CONFIG_KIND}`]);
  }
  const shape = shapeErrors(doc);
  if (shape.length) throw fail(shape);

  const problems: string[] = [];
  const values = new Map<string, { path: string; value: Json }>();
  for (const [path, value] of setFields(doc)) {
    if (path in NO_FLAG) { problems.push(`${path}: not supported (${NO_FLAG[path]})`); continue; }
    const flag = CONFIG_FIELDS[path];
    if (flag === undefined) {
      // An upstream controller's part: plat has no such controller.
      if (!isObject(value) || Object.keys(value).length > 0) problems.push(`${path}: not supported (plat has no such controller)`);
      continue;
    }
    const spec = flags.specs().find((s) => s.name === flag);
    if (spec === undefined || spec.unsupported !== undefined) {
      problems.push(`${path}: not supported (--${flag}${spec?.unsupported ? ` is ${spec.unsupported}` : ' is not a flag of this role'})`);
      continue;
    }
    if (ZERO_IS_UNSET.has(path) && isZero(value, spec.type)) continue;
    values.set(flag, { path, value });
  }
  if (problems.length) throw fail(problems);
  return values;
}

/**
 * Applies `file` to `flags` below the command line. Each value goes through the flag's own parser
 * and checks, so a bad duration reads as it would on the command line, with the field's path.
 */
export function applyControllerManagerConfig(file: string, flags: Flags): void {
  const problems: string[] = [];
  for (const [flag, { path, value }] of readControllerManagerConfig(file, flags)) {
    try {
      flags.setFromConfig({ [flag]: value }, `${file}: ${path}`);
    } catch (e) {
      if (e instanceof FlagError) problems.push(e.message);
      else throw e;
    }
  }
  if (problems.length) throw new StartupError(problems.join('\n'), 1);
}
