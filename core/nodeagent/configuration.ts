// NodeAgentConfiguration (nodeagent.config.platform/v1beta1) as every node-agent subsystem reads it:
// after the --config file, the --config-dir drop-ins, defaulting and the command line. Field names
// are the wire names of spec 03's table. Durations stay Go duration strings on the wire; the
// defaulted form keeps them as strings too (what /configz reports) and subsystems parse them with
// core/flags/duration.ts.
export type Duration = string;

export interface Taint { key: string; value?: string; effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute' | string; timeAdded?: string }

export interface NodeAgentAuthentication {
  x509: { clientCAFile?: string };
  webhook: { enabled: boolean; cacheTTL: Duration };
  anonymous: { enabled: boolean };
}

export interface NodeAgentAuthorization {
  mode: 'AlwaysAllow' | 'Webhook';
  webhook: { cacheAuthorizedTTL: Duration; cacheUnauthorizedTTL: Duration };
}

export interface LoggingConfiguration {
  format: string;
  flushFrequency: Duration | number;
  verbosity: number;
  vmodule?: { filePattern: string; verbosity: number }[];
  options?: { text?: { splitStream?: boolean; infoBufferSize?: string }; json?: { splitStream?: boolean; infoBufferSize?: string } };
}

export interface NodeAgentConfiguration {
  apiVersion: 'nodeagent.config.platform/v1beta1';
  kind: 'NodeAgentConfiguration';
  enableServer: boolean;
  staticPodPath: string;
  podLogsDir: string;
  syncFrequency: Duration;
  fileCheckFrequency: Duration;
  httpCheckFrequency: Duration;
  staticPodURL: string;
  staticPodURLHeader?: Record<string, string[]>;
  address: string;
  port: number;
  readOnlyPort: number;
  tlsCertFile: string;
  tlsPrivateKeyFile: string;
  tlsCipherSuites?: string[];
  tlsMinVersion: string;
  rotateCertificates: boolean;
  serverTLSBootstrap: boolean;
  authentication: NodeAgentAuthentication;
  authorization: NodeAgentAuthorization;
  registryPullQPS: number;
  registryBurst: number;
  imagePullCredentialsVerificationPolicy?: string;
  preloadedImagesVerificationAllowlist?: string[];
  eventRecordQPS: number;
  eventBurst: number;
  enableDebuggingHandlers: boolean;
  enableContentionProfiling: boolean;
  healthzPort: number;
  healthzBindAddress: string;
  oomScoreAdj: number;
  clusterDomain: string;
  clusterDNS?: string[];
  streamingConnectionIdleTimeout: Duration;
  nodeStatusUpdateFrequency: Duration;
  nodeStatusReportFrequency: Duration;
  nodeLeaseDurationSeconds: number;
  imageMinimumGCAge: Duration;
  imageMaximumGCAge: Duration;
  imageGCHighThresholdPercent: number;
  imageGCLowThresholdPercent: number;
  volumeStatsAggPeriod: Duration;
  nodeagentCgroups: string;
  systemCgroups: string;
  cgroupRoot: string;
  cgroupsPerQOS: boolean;
  cgroupDriver: string;
  cpuManagerPolicy: string;
  singleProcessOOMKill?: boolean;
  cpuManagerPolicyOptions?: Record<string, string>;
  cpuManagerReconcilePeriod: Duration;
  memoryManagerPolicy: string;
  topologyManagerPolicy: string;
  topologyManagerScope: string;
  topologyManagerPolicyOptions?: Record<string, string>;
  qosReserved?: Record<string, string>;
  runtimeRequestTimeout: Duration;
  hairpinMode: string;
  maxPods: number;
  podCIDR: string;
  podPidsLimit: number;
  resolvConf: string;
  runOnce: boolean;
  cpuCFSQuota: boolean;
  cpuCFSQuotaPeriod: Duration;
  nodeStatusMaxImages: number;
  maxOpenFiles: number;
  contentType: string;
  platAPIQPS: number;
  platAPIBurst: number;
  serializeImagePulls: boolean;
  maxParallelImagePulls?: number;
  evictionHard?: Record<string, string>;
  evictionSoft?: Record<string, string>;
  evictionSoftGracePeriod?: Record<string, string>;
  evictionMinimumReclaim?: Record<string, string>;
  evictionPressureTransitionPeriod: Duration;
  evictionMaxPodGracePeriod: number;
  mergeDefaultEvictionSettings: boolean;
  podsPerCore: number;
  enableControllerAttachDetach: boolean;
  protectKernelDefaults: boolean;
  makeIPTablesUtilChains: boolean;
  iptablesMasqueradeBit: number;
  iptablesDropBit: number;
  featureGates?: Record<string, boolean>;
  failSwapOn: boolean;
  memorySwap: { swapBehavior?: string };
  containerLogMaxSize: string;
  containerLogMaxFiles: number;
  containerLogMaxWorkers: number;
  containerLogMonitorInterval: Duration;
  configMapAndSecretChangeDetectionStrategy: string;
  systemReserved?: Record<string, string>;
  platReserved?: Record<string, string>;
  reservedSystemCPUs: string;
  showHiddenMetricsForVersion: string;
  systemReservedCgroup: string;
  platReservedCgroup: string;
  enforceNodeAllocatable: string[];
  allowedUnsafeSysctls?: string[];
  volumePluginDir: string;
  providerID: string;
  kernelMemcgNotification: boolean;
  logging: LoggingConfiguration;
  enableSystemLogHandler: boolean;
  enableSystemLogQuery: boolean;
  shutdownGracePeriod: Duration;
  shutdownGracePeriodCriticalPods: Duration;
  shutdownGracePeriodByPodPriority?: { priority: number; shutdownGracePeriodSeconds: number }[];
  crashLoopBackOff: { maxContainerRestartPeriod?: Duration };
  reservedMemory?: { numaNode: number; limits: Record<string, string> }[];
  enableProfilingHandler: boolean;
  enableDebugFlagsHandler: boolean;
  seccompDefault: boolean;
  memoryThrottlingFactor: number;
  registerWithTaints?: Taint[];
  registerNode: boolean;
  tracing?: { endpoint?: string; samplingRatePerMillion?: number };
  localStorageCapacityIsolation: boolean;
  containerRuntimeEndpoint: string;
  imageServiceEndpoint: string;
  failCgroupV1: boolean;
  userNamespaces?: { idsPerPod?: number };
}
