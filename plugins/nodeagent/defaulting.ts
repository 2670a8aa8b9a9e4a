// Upstream's SetDefaults_KubeletConfiguration over a decoded document, with its exact rules: a
// plain field gets its default when it holds the zero value (`port: 0` becomes 10250, `syncFrequency:
// 0s` becomes 1m0s), a pointer field only when it is absent (`healthzPort: 0` stays 0, which turns
// the health server off); nodeStatusReportFrequency follows an explicit nodeStatusUpdateFrequency;
// a negative podPidsLimit becomes -1; serializeImagePulls defaults to false when
// maxParallelImagePulls allows more than one; two defaults exist only while their feature gate is
// on. Values come from core/nodeagent/defaults.ts (the table of spec 03).
import { parseDurationNanos } from '../../core/flags/duration.js';
import { defaultNodeAgentConfiguration } from '../../core/nodeagent/defaults.js';
import type { FeatureGates } from '../../core/nodeagent/feature-gates.js';
import { isObject, type Json, type JsonObject } from './decode.js';

const D = defaultNodeAgentConfiguration() as unknown as JsonObject;

const isZeroDuration = (v: Json | undefined): boolean => v === undefined || (typeof v === 'string' && parseDurationNanos(v) === 0n);
const isZero = (v: Json | undefined): boolean => v === undefined || v === '' || v === 0 || v === false;

function child(o: JsonObject, name: string): JsonObject {
  const c = o[name];
  if (isObject(c)) return c;
  const created: JsonObject = {};
  o[name] = created;
  return created;
}

const clone = <T extends Json>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** Fields defaulted when zero (Go non-pointer fields). */
const WHEN_ZERO = [
  'address', 'port', 'registryBurst', 'eventBurst', 'healthzBindAddress', 'nodeLeaseDurationSeconds', 'cgroupDriver',
  'cpuManagerPolicy', 'memoryManagerPolicy', 'topologyManagerPolicy', 'topologyManagerScope', 'hairpinMode', 'maxPods',
  'maxOpenFiles', 'contentType', 'platAPIBurst', 'containerLogMaxSize', 'configMapAndSecretChangeDetectionStrategy',
  'volumePluginDir', 'containerRuntimeEndpoint', 'podLogsDir',
] as const;
const DURATIONS_WHEN_ZERO = [
  'syncFrequency', 'fileCheckFrequency', 'httpCheckFrequency', 'streamingConnectionIdleTimeout', 'imageMinimumGCAge',
  'volumeStatsAggPeriod', 'cpuManagerReconcilePeriod', 'runtimeRequestTimeout', 'evictionPressureTransitionPeriod',
] as const;
/** Fields defaulted when absent (Go pointer fields). */
const WHEN_ABSENT = [
  'enableServer', 'registryPullQPS', 'eventRecordQPS', 'enableDebuggingHandlers', 'healthzPort', 'oomScoreAdj',
  'imageGCHighThresholdPercent', 'imageGCLowThresholdPercent', 'cgroupsPerQOS', 'resolvConf', 'cpuCFSQuota',
  'cpuCFSQuotaPeriod', 'nodeStatusMaxImages', 'platAPIQPS', 'mergeDefaultEvictionSettings', 'enableControllerAttachDetach',
  'makeIPTablesUtilChains', 'iptablesMasqueradeBit', 'iptablesDropBit', 'failSwapOn', 'containerLogMaxFiles',
  'containerLogMaxWorkers', 'containerLogMonitorInterval', 'enforceNodeAllocatable', 'enableSystemLogHandler',
  'enableProfilingHandler', 'enableDebugFlagsHandler', 'seccompDefault', 'failCgroupV1', 'memoryThrottlingFactor',
  'registerNode', 'localStorageCapacityIsolation',
] as const;

/** Fills `o` (a decoded document) with upstream's defaults; `gates` are the gates in effect for it. */
export function setDefaults(o: JsonObject, gates: FeatureGates): void {
  for (const k of WHEN_ZERO) if (isZero(o[k])) o[k] = clone(D[k]!);
  for (const k of DURATIONS_WHEN_ZERO) if (isZeroDuration(o[k])) o[k] = D[k]!;
  for (const k of WHEN_ABSENT) if (o[k] === undefined) o[k] = clone(D[k]!);

  const dAuthn = D['authentication'] as JsonObject;
  const authn = child(o, 'authentication');
  child(authn, 'x509');
  const anonymous = child(authn, 'anonymous');
  if (anonymous['enabled'] === undefined) anonymous['enabled'] = (dAuthn['anonymous'] as JsonObject)['enabled']!;
  const webhook = child(authn, 'webhook');
  const dWebhook = dAuthn['webhook'] as JsonObject;
  if (webhook['enabled'] === undefined) webhook['enabled'] = dWebhook['enabled']!;
  if (isZeroDuration(webhook['cacheTTL'])) webhook['cacheTTL'] = dWebhook['cacheTTL']!;

  const dAuthz = D['authorization'] as JsonObject;
  const authz = child(o, 'authorization');
  if (isZero(authz['mode'])) authz['mode'] = dAuthz['mode']!;
  const authzWebhook = child(authz, 'webhook');
  const dAuthzWebhook = dAuthz['webhook'] as JsonObject;
  for (const k of ['cacheAuthorizedTTL', 'cacheUnauthorizedTTL']) {
    if (isZeroDuration(authzWebhook[k])) authzWebhook[k] = dAuthzWebhook[k]!;
  }

  // Kept for backward compatibility upstream: an explicit update frequency is also the report frequency.
  if (isZeroDuration(o['nodeStatusReportFrequency'])) {
    o['nodeStatusReportFrequency'] = isZeroDuration(o['nodeStatusUpdateFrequency']) ? D['nodeStatusReportFrequency']! : o['nodeStatusUpdateFrequency']!;
  }
  if (isZeroDuration(o['nodeStatusUpdateFrequency'])) o['nodeStatusUpdateFrequency'] = D['nodeStatusUpdateFrequency']!;
  if (o['podPidsLimit'] === undefined || (o['podPidsLimit'] as number) < 0) o['podPidsLimit'] = -1;
  if (o['serializeImagePulls'] === undefined) {
    const parallel = o['maxParallelImagePulls'];
    o['serializeImagePulls'] = parallel === undefined || (parallel as number) < 2;
  }

  child(o, 'memorySwap');
  const logging = child(o, 'logging');
  const dLogging = D['logging'] as JsonObject;
  if (isZero(logging['format'])) logging['format'] = dLogging['format']!;
  const flush = logging['flushFrequency'];
  if (flush === undefined || flush === 0 || isZeroDuration(flush)) logging['flushFrequency'] = dLogging['flushFrequency']!;
  if (logging['verbosity'] === undefined) logging['verbosity'] = 0;
  const options = child(logging, 'options');
  for (const stream of ['text', 'json']) {
    const routing = child(options, stream);
    if (routing['infoBufferSize'] === undefined) routing['infoBufferSize'] = '0';
  }

  const crash = child(o, 'crashLoopBackOff');
  if (gates.enabled('KubeletCrashLoopBackOffMax') && crash['maxContainerRestartPeriod'] === undefined) {
    crash['maxContainerRestartPeriod'] = (D['crashLoopBackOff'] as JsonObject)['maxContainerRestartPeriod']!;
  }
  if (gates.enabled('KubeletEnsureSecretPulledImages') && isZero(o['imagePullCredentialsVerificationPolicy'])) {
    o['imagePullCredentialsVerificationPolicy'] = D['imagePullCredentialsVerificationPolicy']!;
  }

  // Fields with no default hold their zero value in the internal form (what /configz renders).
  for (const [k, v] of Object.entries(ZERO_VALUES)) if (o[k] === undefined) o[k] = v;
}

/** The internal zero values of the fields upstream leaves undefaulted but the type requires. */
const ZERO_VALUES: Readonly<Record<string, Json>> = {
  staticPodPath: '', staticPodURL: '', readOnlyPort: 0, tlsCertFile: '', tlsPrivateKeyFile: '', tlsMinVersion: '',
  rotateCertificates: false, serverTLSBootstrap: false, enableContentionProfiling: false, clusterDomain: '',
  imageMaximumGCAge: '0s', nodeagentCgroups: '', systemCgroups: '', cgroupRoot: '', podCIDR: '', runOnce: false,
  evictionMaxPodGracePeriod: 0, podsPerCore: 0, protectKernelDefaults: false, reservedSystemCPUs: '',
  showHiddenMetricsForVersion: '', systemReservedCgroup: '', platReservedCgroup: '', providerID: '',
  kernelMemcgNotification: false, enableSystemLogQuery: false, shutdownGracePeriod: '0s', shutdownGracePeriodCriticalPods: '0s',
  imageServiceEndpoint: '',
};

/**
 * Upstream's config loader, after defaulting: no evictionHard means the default thresholds;
 * with mergeDefaultEvictionSettings the default thresholds fill the signals the file left out.
 */
export function defaultEvictionHard(o: JsonObject): void {
  const defaults = D['evictionHard'] as JsonObject;
  const given = o['evictionHard'];
  if (!isObject(given)) o['evictionHard'] = clone(defaults);
  else if (o['mergeDefaultEvictionSettings'] === true) {
    for (const [k, v] of Object.entries(defaults)) if (given[k] === undefined) given[k] = v;
  }
}
