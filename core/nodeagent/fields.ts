// The wire shape of NodeAgentConfiguration (nodeagent.config.platform/v1beta1), field by field in
// the order of upstream's v1beta1 KubeletConfiguration struct, with what its Go declaration means
// for a reader: the JSON type the strict decoder accepts, whether the field is a pointer (present
// when set, even to false or 0) or a plain `omitempty` value (left out of the JSON when it is the
// zero value), and whether a relative path in it is resolved against the config file's directory
// (upstream's KubeletConfigurationPathRefs). The config loader decodes with it, /configz renders
// with it.

export type Scalar = 'bool' | 'int32' | 'int64' | 'uint32' | 'float64' | 'string' | 'duration' | 'timeOrMetaDuration' | 'quantity';

export type FieldType =
  | { readonly kind: Scalar }
  | { readonly kind: 'list'; readonly of: FieldType }
  | { readonly kind: 'map'; readonly of: FieldType }
  | { readonly kind: 'object'; readonly go: string; readonly fields: Readonly<Record<string, Field>> };

export interface Field {
  readonly type: FieldType;
  /** Go `*T` (or a slice, map or struct without omitempty): rendered whenever it has a value. */
  readonly pointer?: true;
  /** A non-pointer `omitempty` field: its zero value is left out of the JSON. */
  readonly omitEmpty?: true;
  /** Resolved against the directory of the --config file when relative. */
  readonly path?: true;
}

const t = (kind: Scalar): FieldType => ({ kind });
const list = (of: FieldType): FieldType => ({ kind: 'list', of });
const map = (of: FieldType): FieldType => ({ kind: 'map', of });
const object = (go: string, fields: Record<string, Field>): FieldType => ({ kind: 'object', go, fields });

/** A non-pointer omitempty field. */
const opt = (type: FieldType, extra: Partial<Field> = {}): Field => ({ type, omitEmpty: true, ...extra });
/** A pointer field (or a struct, which Go always renders). */
const ptr = (type: FieldType): Field => ({ type, pointer: true });

const BOOL = t('bool');
const INT32 = t('int32');
const INT64 = t('int64');
const STRING = t('string');
const DURATION = t('duration');
const STRINGS = list(STRING);
const STRING_MAP = map(STRING);

const outputRouting = (go: string) => object(go, { splitStream: opt(BOOL), infoBufferSize: opt(t('quantity')) });

export const TAINT = object('Taint', {
  key: { type: STRING },
  value: opt(STRING),
  effect: { type: STRING },
  timeAdded: opt(STRING),
});

export const CONFIG_FIELDS: Readonly<Record<string, Field>> = {
  enableServer: ptr(BOOL),
  staticPodPath: opt(STRING, { path: true }),
  podLogsDir: opt(STRING, { path: true }),
  syncFrequency: ptr(DURATION),
  fileCheckFrequency: ptr(DURATION),
  httpCheckFrequency: ptr(DURATION),
  staticPodURL: opt(STRING),
  staticPodURLHeader: opt(map(STRINGS)),
  address: opt(STRING),
  port: opt(INT32),
  readOnlyPort: opt(INT32),
  tlsCertFile: opt(STRING, { path: true }),
  tlsPrivateKeyFile: opt(STRING, { path: true }),
  tlsCipherSuites: opt(STRINGS),
  tlsMinVersion: opt(STRING),
  rotateCertificates: opt(BOOL),
  serverTLSBootstrap: opt(BOOL),
  authentication: ptr(object('NodeAgentAuthentication', {
    x509: ptr(object('NodeAgentX509Authentication', { clientCAFile: opt(STRING, { path: true }) })),
    webhook: ptr(object('NodeAgentWebhookAuthentication', { enabled: ptr(BOOL), cacheTTL: ptr(DURATION) })),
    anonymous: ptr(object('NodeAgentAnonymousAuthentication', { enabled: ptr(BOOL) })),
  })),
  authorization: ptr(object('NodeAgentAuthorization', {
    mode: opt(STRING),
    webhook: ptr(object('NodeAgentWebhookAuthorization', { cacheAuthorizedTTL: ptr(DURATION), cacheUnauthorizedTTL: ptr(DURATION) })),
  })),
  registryPullQPS: ptr(INT32),
  registryBurst: opt(INT32),
  imagePullCredentialsVerificationPolicy: opt(STRING),
  preloadedImagesVerificationAllowlist: opt(STRINGS),
  eventRecordQPS: ptr(INT32),
  eventBurst: opt(INT32),
  enableDebuggingHandlers: ptr(BOOL),
  enableContentionProfiling: opt(BOOL),
  healthzPort: ptr(INT32),
  healthzBindAddress: opt(STRING),
  oomScoreAdj: ptr(INT32),
  clusterDomain: opt(STRING),
  clusterDNS: opt(STRINGS),
  streamingConnectionIdleTimeout: ptr(DURATION),
  nodeStatusUpdateFrequency: ptr(DURATION),
  nodeStatusReportFrequency: ptr(DURATION),
  nodeLeaseDurationSeconds: opt(INT32),
  imageMinimumGCAge: ptr(DURATION),
  imageMaximumGCAge: ptr(DURATION),
  imageGCHighThresholdPercent: ptr(INT32),
  imageGCLowThresholdPercent: ptr(INT32),
  volumeStatsAggPeriod: ptr(DURATION),
  nodeagentCgroups: opt(STRING),
  systemCgroups: opt(STRING),
  cgroupRoot: opt(STRING),
  cgroupsPerQOS: ptr(BOOL),
  cgroupDriver: opt(STRING),
  cpuManagerPolicy: opt(STRING),
  singleProcessOOMKill: ptr(BOOL),
  cpuManagerPolicyOptions: opt(STRING_MAP),
  cpuManagerReconcilePeriod: ptr(DURATION),
  memoryManagerPolicy: opt(STRING),
  topologyManagerPolicy: opt(STRING),
  topologyManagerScope: opt(STRING),
  topologyManagerPolicyOptions: opt(STRING_MAP),
  qosReserved: opt(STRING_MAP),
  runtimeRequestTimeout: ptr(DURATION),
  hairpinMode: opt(STRING),
  maxPods: opt(INT32),
  podCIDR: opt(STRING),
  podPidsLimit: ptr(INT64),
  resolvConf: { type: STRING, pointer: true, path: true },
  runOnce: opt(BOOL),
  cpuCFSQuota: ptr(BOOL),
  cpuCFSQuotaPeriod: ptr(DURATION),
  nodeStatusMaxImages: ptr(INT32),
  maxOpenFiles: opt(INT64),
  contentType: opt(STRING),
  platAPIQPS: ptr(INT32),
  platAPIBurst: opt(INT32),
  serializeImagePulls: ptr(BOOL),
  maxParallelImagePulls: ptr(INT32),
  evictionHard: opt(STRING_MAP),
  evictionSoft: opt(STRING_MAP),
  evictionSoftGracePeriod: opt(STRING_MAP),
  evictionPressureTransitionPeriod: ptr(DURATION),
  evictionMaxPodGracePeriod: opt(INT32),
  evictionMinimumReclaim: opt(STRING_MAP),
  mergeDefaultEvictionSettings: ptr(BOOL),
  podsPerCore: opt(INT32),
  enableControllerAttachDetach: ptr(BOOL),
  protectKernelDefaults: opt(BOOL),
  makeIPTablesUtilChains: ptr(BOOL),
  iptablesMasqueradeBit: ptr(INT32),
  iptablesDropBit: ptr(INT32),
  featureGates: opt(map(BOOL)),
  failSwapOn: ptr(BOOL),
  memorySwap: ptr(object('MemorySwapConfiguration', { swapBehavior: opt(STRING) })),
  containerLogMaxSize: opt(STRING),
  containerLogMaxFiles: ptr(INT32),
  containerLogMaxWorkers: ptr(INT32),
  containerLogMonitorInterval: ptr(DURATION),
  configMapAndSecretChangeDetectionStrategy: opt(STRING),
  systemReserved: opt(STRING_MAP),
  platReserved: opt(STRING_MAP),
  reservedSystemCPUs: opt(STRING),
  showHiddenMetricsForVersion: opt(STRING),
  systemReservedCgroup: opt(STRING),
  platReservedCgroup: opt(STRING),
  enforceNodeAllocatable: opt(STRINGS),
  allowedUnsafeSysctls: opt(STRINGS),
  volumePluginDir: opt(STRING, { path: true }),
  providerID: opt(STRING),
  kernelMemcgNotification: opt(BOOL),
  logging: ptr(object('LoggingConfiguration', {
    format: opt(STRING),
    flushFrequency: ptr(t('timeOrMetaDuration')),
    verbosity: ptr(t('uint32')),
    vmodule: opt(list(object('VModuleItem', { filePattern: { type: STRING }, verbosity: { type: t('uint32') } }))),
    options: ptr(object('FormatOptions', { text: ptr(outputRouting('TextOptions')), json: ptr(outputRouting('JSONOptions')) })),
  })),
  enableSystemLogHandler: ptr(BOOL),
  enableSystemLogQuery: ptr(BOOL),
  shutdownGracePeriod: ptr(DURATION),
  shutdownGracePeriodCriticalPods: ptr(DURATION),
  shutdownGracePeriodByPodPriority: opt(list(object('ShutdownGracePeriodByPodPriority', {
    priority: { type: INT32 }, shutdownGracePeriodSeconds: { type: INT64 },
  }))),
  crashLoopBackOff: ptr(object('CrashLoopBackOffConfig', { maxContainerRestartPeriod: ptr(DURATION) })),
  reservedMemory: opt(list(object('MemoryReservation', { numaNode: { type: INT32 }, limits: { type: STRING_MAP } }))),
  enableProfilingHandler: ptr(BOOL),
  enableDebugFlagsHandler: ptr(BOOL),
  seccompDefault: ptr(BOOL),
  memoryThrottlingFactor: ptr(t('float64')),
  registerWithTaints: opt(list(TAINT)),
  registerNode: ptr(BOOL),
  tracing: ptr(object('TracingConfiguration', { endpoint: ptr(STRING), samplingRatePerMillion: ptr(INT32) })),
  localStorageCapacityIsolation: ptr(BOOL),
  containerRuntimeEndpoint: { type: STRING },
  imageServiceEndpoint: opt(STRING),
  failCgroupV1: ptr(BOOL),
  userNamespaces: ptr(object('UserNamespaces', { idsPerPod: ptr(INT64) })),
};

/** The whole document: TypeMeta first, as Go's inline embedding renders it. */
export const CONFIG_TYPE: FieldType = object('NodeAgentConfiguration', {
  kind: opt(STRING),
  apiVersion: opt(STRING),
  ...CONFIG_FIELDS,
});

export const CONFIG_API_VERSION = 'nodeagent.config.platform/v1beta1';
export const CONFIG_KIND = 'NodeAgentConfiguration';

/** Field paths (dotted) whose relative values are resolved against the config file's directory. */
export function pathFields(type: FieldType = CONFIG_TYPE, prefix = ''): string[] {
  if (type.kind !== 'object') return [];
  return Object.entries(type.fields).flatMap(([name, f]) => {
    const p = prefix ? `${prefix}.${name}` : name;
    return f.path ? [p] : pathFields(f.type, p);
  });
}
