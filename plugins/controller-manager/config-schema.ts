// The shape of a PlatControllerManagerConfiguration (platcontrollermanager.config.platform/
// v1alpha1) as far as plat reads it: the Generic, KubeCloudShared, CSRSigningController,
// GarbageCollectorController, NamespaceController, SAController and NodeLifecycleController parts with upstream's
// field names (Go field names, except the json-tagged ClientConnection and LeaderElection
// fields), strict (an unknown field is an error, as upstream's strict decoding). The other
// controllers' parts are known by name only, so that using one gets "not supported" rather than
// "unknown field". Problems come back as `<field path>: <problem>` with upstream's dotted paths.
import type { ErrorObject, ValidateFunction } from 'ajv';
import { ajvModule } from '../../core/ajv-module.js';

export const CONFIG_API_VERSION = 'platcontrollermanager.config.platform/v1alpha1';
export const CONFIG_KIND = 'PlatControllerManagerConfiguration';

/** Parts of the upstream configuration for controllers plat does not have. */
export const UNSUPPORTED_PARTS = [
  'AttachDetachController', 'DaemonSetController', 'DeploymentController', 'StatefulSetController',
  'DeprecatedController', 'EndpointController', 'EndpointSliceController', 'EndpointSliceMirroringController',
  'EphemeralVolumeController', 'HPAController', 'JobController', 'CronJobController',
  'NodeIPAMController',
  'PersistentVolumeBinderController', 'PodGCController', 'ReplicaSetController', 'ReplicationController',
  'ResourceQuotaController', 'ServiceController', 'TTLAfterFinishedController',
  'ValidatingAdmissionPolicyStatusController', 'DeviceTaintEvictionController',
] as const;

const str = { type: 'string' } as const;
const bool = { type: 'boolean' } as const;
const int = { type: 'integer' } as const;
const num = { type: 'number' } as const;
/** metav1.Duration: Go duration text ("15s"); the flag parser checks the grammar. */
const duration = { type: 'string' } as const;
const object = (properties: Record<string, unknown>) => ({ type: 'object', properties, additionalProperties: false });
const signer = object({ CertFile: str, KeyFile: str });

const schema = object({
  apiVersion: str,
  kind: str,
  Generic: object({
    Port: int,
    Address: str,
    MinResyncPeriod: duration,
    ClientConnection: object({ kubeconfig: str, acceptContentTypes: str, contentType: str, qps: { type: 'number' }, burst: int }),
    ControllerStartInterval: duration,
    LeaderElection: object({
      leaderElect: bool, leaseDuration: duration, renewDeadline: duration, retryPeriod: duration,
      resourceLock: str, resourceName: str, resourceNamespace: str,
    }),
    Controllers: { type: 'array', items: str },
    Debugging: object({ enableProfiling: bool, enableContentionProfiling: bool }),
    LeaderMigrationEnabled: bool,
    LeaderMigration: object({
      leaderName: str, resourceLock: str,
      controllerLeaders: { type: 'array', items: object({ name: str, component: str }) },
    }),
  }),
  KubeCloudShared: object({
    CloudProvider: object({ Name: str, CloudConfigFile: str }),
    ExternalCloudVolumePlugin: str,
    UseServiceAccountCredentials: bool,
    AllowUntaggedCloud: bool,
    RouteReconciliationPeriod: duration,
    NodeMonitorPeriod: duration,
    ClusterName: str,
    ClusterCIDR: str,
    AllocateNodeCIDRs: bool,
    CIDRAllocatorType: str,
    ConfigureCloudRoutes: bool,
    NodeSyncPeriod: duration,
  }),
  CSRSigningController: object({
    ClusterSigningCertFile: str,
    ClusterSigningKeyFile: str,
    NodeAgentServingSignerConfiguration: signer,
    NodeAgentClientSignerConfiguration: signer,
    PlatAPIServerClientSignerConfiguration: signer,
    LegacyUnknownSignerConfiguration: signer,
    ClusterSigningDuration: duration,
  }),
  GarbageCollectorController: object({
    EnableGarbageCollector: bool,
    ConcurrentGCSyncs: int,
    GCIgnoredResources: { type: 'array', items: object({ Group: str, Resource: str }) },
  }),
  NamespaceController: object({ NamespaceSyncPeriod: duration, ConcurrentNamespaceSyncs: int }),
  LegacySATokenCleaner: object({ CleanUpPeriod: duration }),
  SAController: object({ ServiceAccountKeyFile: str, ConcurrentSATokenSyncs: int, RootCAFile: str }),
  NodeLifecycleController: object({
    NodeEvictionRate: num, SecondaryNodeEvictionRate: num, NodeStartupGracePeriod: duration, NodeMonitorGracePeriod: duration,
    PodEvictionTimeout: duration, LargeClusterSizeThreshold: int, UnhealthyZoneThreshold: num,
  }),
  ...Object.fromEntries(UNSUPPORTED_PARTS.map((p) => [p, { type: 'object' }])),
});

// Compiled on first use (a --config file): compiling costs every start ~0.06 s, and loading ajv
// itself (~60 modules) every command that reads no file.
let compiled: ValidateFunction | undefined;
const validator = (): ValidateFunction => compiled ??= new (ajvModule().Ajv)({ allErrors: true, strict: true }).compile(schema);

/** `/Generic/Controllers/0` → `Generic.Controllers[0]`. */
export function fieldPath(pointer: string): string {
  return pointer.split('/').slice(1).map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, token) => (/^\d+$/.test(token) ? `${path}[${token}]` : path ? `${path}.${token}` : token), '');
}

function describe(err: ErrorObject): string {
  const at = fieldPath(err.instancePath);
  if (err.keyword === 'additionalProperties') {
    const name = String(err.params['additionalProperty']);
    return `${at ? `${at}.` : ''}${name}: unknown field`;
  }
  if (err.keyword === 'type') {
    const t = String(err.params['type']);
    return `${at || '(root)'}: must be ${t === 'object' ? 'a mapping' : t === 'array' ? 'a list' : `a ${t === 'integer' ? 'whole number' : t}`}`;
  }
  return `${at || '(root)'}: ${err.message ?? err.keyword}`;
}

/** Problems with the document's shape, each `<field path>: <problem>`; empty when it fits. */
export function shapeErrors(doc: unknown): string[] {
  const validate = validator();
  if (validate(doc)) return [];
  return [...new Set((validate.errors ?? []).map(describe))];
}
