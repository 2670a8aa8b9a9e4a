// One case per validation rule of NodeAgentConfiguration (spec 03's table, upstream's
// ValidateKubeletConfiguration and the other start-up checks): an invalid value, through the file
// or a flag, and the error text with its field. Valid defaults pass; every problem is reported at
// once; a problem caused by a drop-in names the drop-in.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { build, ok, type BuildCase } from './support.js';

const VALIDATE = 'failed to validate nodeagent configuration, error: ';
const GATES = 'failed to set feature gates from initial flags-based config: ';

type Row = [name: string, c: BuildCase, expected: string, prefix?: string];

const f = (file: Record<string, unknown>): BuildCase => ({ file });
const gates = (g: Record<string, boolean>, rest: Record<string, unknown> = {}): BuildCase => ({ file: { featureGates: g, ...rest } });

const ROWS: Row[] = [
  ['nodeLeaseDurationSeconds above 0', f({ nodeLeaseDurationSeconds: -1 }), 'invalid configuration: nodeLeaseDurationSeconds must be greater than 0'],
  ['systemCgroups requires cgroupRoot', f({ systemCgroups: '/system' }), 'invalid configuration: systemCgroups (--system-cgroups) was specified and cgroupRoot (--cgroup-root) was not specified'],
  ['eventBurst not negative', f({ eventBurst: -1 }), 'invalid configuration: eventBurst (--event-burst) -1 must not be a negative number'],
  ['eventRecordQPS not negative', f({ eventRecordQPS: -1 }), 'invalid configuration: eventRecordQPS (--event-qps) -1 must not be a negative number'],
  ['healthzPort 1 to 65535', f({ healthzPort: 65536 }), 'invalid configuration: healthzPort (--healthz-port) 65536 must be between 1 and 65535, inclusive'],
  ['cpuCFSQuotaPeriod needs its gate', f({ cpuCFSQuotaPeriod: '200ms' }), 'invalid configuration: cpuCFSQuotaPeriod (--cpu-cfs-quota-period) {200ms} requires feature gate CustomCPUCFSQuotaPeriod'],
  ['cpuCFSQuotaPeriod 1ms to 1s', gates({ CPUCFSQuotaPeriod: true }, { cpuCFSQuotaPeriod: '2s' }), 'invalid configuration: cpuCFSQuotaPeriod (--cpu-cfs-quota-period) {2s} must be between 1ms and 1sec, inclusive'],
  ['imageGCHighThresholdPercent 0-100', f({ imageGCHighThresholdPercent: 101 }), 'invalid configuration: imageGCHighThresholdPercent (--image-gc-high-threshold) 101 must be between 0 and 100, inclusive'],
  ['imageGCLowThresholdPercent 0-100', f({ imageGCLowThresholdPercent: -1 }), 'invalid configuration: imageGCLowThresholdPercent (--image-gc-low-threshold) -1 must be between 0 and 100, inclusive'],
  ['imageGCLowThresholdPercent below the high value', f({ imageGCLowThresholdPercent: 90, imageGCHighThresholdPercent: 85 }),
    'invalid configuration: imageGCLowThresholdPercent (--image-gc-low-threshold) 90 must be less than imageGCHighThresholdPercent (--image-gc-high-threshold) 85'],
  ['imageMinimumGCAge not negative', f({ imageMinimumGCAge: '-1s' }), 'invalid configuration: imageMinimumGCAge -1s must not be negative'],
  ['imageMaximumGCAge not negative', f({ imageMaximumGCAge: '-1s' }), 'invalid configuration: imageMaximumGCAge -1s must not be negative'],
  ['imageMaximumGCAge above imageMinimumGCAge', f({ imageMaximumGCAge: '1m', imageMinimumGCAge: '2m' }), 'invalid configuration: imageMaximumGCAge 1m0s must be greater than imageMinimumGCAge 2m0s'],
  ['iptablesDropBit 0-31', f({ iptablesDropBit: 32 }), 'invalid configuration: iptablesDropBit (--iptables-drop-bit) 32 must be between 0 and 31, inclusive'],
  ['iptablesMasqueradeBit 0-31', f({ iptablesMasqueradeBit: -1 }), 'invalid configuration: iptablesMasqueradeBit (--iptables-masquerade-bit) -1 must be between 0 and 31, inclusive'],
  ['platAPIBurst not negative', f({ platAPIBurst: -1 }), 'invalid configuration: platAPIBurst (--plat-api-burst) -1 must not be a negative number'],
  ['platAPIQPS not negative', f({ platAPIQPS: -1 }), 'invalid configuration: platAPIQPS (--plat-api-qps) -1 must not be a negative number'],
  ['nodeStatusMaxImages greater than -2', f({ nodeStatusMaxImages: -2 }), 'invalid configuration: nodeStatusMaxImages (--node-status-max-images) -2 must be -1 or greater'],
  ['maxOpenFiles non-negative', f({ maxOpenFiles: -1 }), 'invalid configuration: maxOpenFiles (--max-open-files) -1 must not be a negative number'],
  ['maxPods non-negative', f({ maxPods: -1 }), 'invalid configuration: maxPods (--max-pods) -1 must not be a negative number'],
  ['oomScoreAdj -1000 to 1000', f({ oomScoreAdj: 1001 }), 'invalid configuration: oomScoreAdj (--oom-score-adj) 1001 must be between -1000 and 1000, inclusive'],
  ['podsPerCore non-negative', f({ podsPerCore: -1 }), 'invalid configuration: podsPerCore (--pods-per-core) -1 must not be a negative number'],
  ['port 1 to 65535', f({ port: 70000 }), 'invalid configuration: port (--port) 70000 must be between 1 and 65535, inclusive'],
  ['port 0 from the command line', { args: ['--port=0'] }, 'invalid configuration: port (--port) 0 must be between 1 and 65535, inclusive'],
  ['readOnlyPort 1 to 65535', f({ readOnlyPort: 70000 }), 'invalid configuration: readOnlyPort (--read-only-port) 70000 must be between 0 and 65535, inclusive'],
  ['registryBurst not negative', f({ registryBurst: -1 }), 'invalid configuration: registryBurst (--registry-burst) -1 must not be a negative number'],
  ['registryPullQPS not negative', f({ registryPullQPS: -1 }), 'invalid configuration: registryPullQPS (--registry-qps) -1 must not be a negative number'],
  ['maxParallelImagePulls positive', f({ maxParallelImagePulls: 0 }), 'invalid configuration: maxParallelImagePulls 0 must be a positive number'],
  ['maxParallelImagePulls cannot be set if serializeImagePulls', f({ maxParallelImagePulls: 2, serializeImagePulls: true }),
    'invalid configuration: maxParallelImagePulls cannot be larger than 1 unless SerializeImagePulls (--serialize-image-pulls) is set to false'],
  ['serverTLSBootstrap needs RotateKubeletServerCertificate', gates({ RotateKubeletServerCertificate: false }, { serverTLSBootstrap: true }),
    'invalid configuration: serverTLSBootstrap true requires feature gate RotateKubeletServerCertificate'],
  ['runOnce', { args: ['--runonce'] }, 'invalid configuration: runOnce (--runOnce) true, Runonce mode has been deprecated and should not be set'],
  ['registerWithTaints key', f({ registerWithTaints: [{ key: 'bad key', effect: 'NoSchedule' }] }), 'invalid taint: {bad key  NoSchedule <nil>}: invalid taint key: name part must consist of alphanumeric characters'],
  ['registerWithTaints effect', f({ registerWithTaints: [{ key: 'k', value: 'v', effect: 'Sometimes' }] }), 'invalid taint: {k v Sometimes <nil>}: invalid taint effect: Sometimes, unsupported taint effect'],
  ['registerWithTaints timeAdded', f({ registerWithTaints: [{ key: 'k', effect: 'NoSchedule', timeAdded: '2024-01-01T00:00:00Z' }] }), 'invalid configuration: taint.TimeAdded is not nil'],
  ['topologyManagerPolicy', f({ topologyManagerPolicy: 'best' }),
    'invalid configuration: topologyManagerPolicy (--topology-manager-policy) "best" must be one of: ["none" "best-effort" "restricted" "single-numa-node"]'],
  ['topologyManagerScope', f({ topologyManagerScope: 'node' }), 'invalid configuration: topologyManagerScope (--topology-manager-scope) "node" must be one of: "container", or "pod"'],
  ['shutdownGracePeriodCriticalPods less than shutdownGracePeriod', f({ shutdownGracePeriod: '10s', shutdownGracePeriodCriticalPods: '20s' }),
    'invalid configuration: shutdownGracePeriodCriticalPods {20s} must be <= shutdownGracePeriod {10s}'],
  ['shutdownGracePeriod zero or at least 1s', f({ shutdownGracePeriod: '500ms' }), 'invalid configuration: shutdownGracePeriod {500ms} must be either zero or otherwise >= 1 sec'],
  ['shutdownGracePeriodCriticalPods zero or at least 1s', f({ shutdownGracePeriod: '10s', shutdownGracePeriodCriticalPods: '500ms' }),
    'invalid configuration: shutdownGracePeriodCriticalPods {500ms} must be either zero or otherwise >= 1 sec'],
  ['shutdownGracePeriod needs GracefulNodeShutdown', gates({ GracefulNodeShutdown: false, GracefulNodeShutdownBasedOnPodPriority: false, WindowsGracefulNodeShutdown: false }, { shutdownGracePeriod: '10s' }),
    'invalid configuration: specifying shutdownGracePeriod or shutdownGracePeriodCriticalPods requires feature gate GracefulNodeShutdown'],
  ['shutdownGracePeriodByPodPriority must be empty if the periods are set',
    f({ shutdownGracePeriod: '10s', shutdownGracePeriodByPodPriority: [{ priority: 0, shutdownGracePeriodSeconds: 10 }] }),
    'invalid configuration: Cannot specify both shutdownGracePeriodByPodPriority and shutdownGracePeriod at the same time'],
  ['shutdownGracePeriodByPodPriority needs its gate',
    gates({ GracefulNodeShutdownBasedOnPodPriority: false }, { shutdownGracePeriodByPodPriority: [{ priority: 0, shutdownGracePeriodSeconds: 10 }] }),
    'invalid configuration: Specifying shutdownGracePeriodByPodPriority requires feature gate GracefulNodeShutdownBasedOnPodPriority'],
  ['memorySwap.swapBehavior', f({ memorySwap: { swapBehavior: 'UnlimitedSwap' } }), 'invalid configuration: memorySwap.swapBehavior "UnlimitedSwap" must be one of: "", "LimitedSwap" or "NoSwap"'],
  ['crashLoopBackOff 1s to 300s', f({ crashLoopBackOff: { maxContainerRestartPeriod: '500ms' } }),
    'invalid configuration: CrashLoopBackOff.MaxContainerRestartPeriod (got: 0.5 seconds) must be set between 1s and 300s'],
  ['crashLoopBackOff needs its gate', gates({ KubeletCrashLoopBackOffMax: false }, { crashLoopBackOff: { maxContainerRestartPeriod: '10s' } }),
    'invalid configuration: FeatureGate KubeletCrashLoopBackOffMax not enabled, CrashLoopBackOff.MaxContainerRestartPeriod must not be set'],
  ['enforceNodeAllocatable exclusive pairs', f({ enforceNodeAllocatable: ['system-reserved', 'system-reserved-compressible'], systemReservedCgroup: '/s' }),
    'invalid configuration: both "system-reserved" and "system-reserved-compressible" cannot be specified together in enforceNodeAllocatable (--enforce-node-allocatable)'],
  ['enforceNodeAllocatable plat pairs', f({ enforceNodeAllocatable: ['plat-reserved', 'plat-reserved-compressible'], platReservedCgroup: '/p' }),
    'invalid configuration: both "plat-reserved" and "plat-reserved-compressible" cannot be specified together in enforceNodeAllocatable (--enforce-node-allocatable)'],
  ['enforceNodeAllocatable duplicates', f({ enforceNodeAllocatable: ['pods', 'pods'] }), 'invalid configuration: duplicated enforcements "pods" in enforceNodeAllocatable (--enforce-node-allocatable)'],
  ['system-reserved needs systemReservedCgroup', f({ enforceNodeAllocatable: ['system-reserved'] }),
    'invalid configuration: systemReservedCgroup (--system-reserved-cgroup) must be specified when "system-reserved" or "system-reserved-compressible" included in enforceNodeAllocatable (--enforce-node-allocatable)'],
  ['plat-reserved needs platReservedCgroup', { args: ['--enforce-node-allocatable=plat-reserved-compressible'] },
    'invalid configuration: platReservedCgroup (--plat-reserved-cgroup) must be specified when "plat-reserved" or "plat-reserved-compressible" included in enforceNodeAllocatable (--enforce-node-allocatable)'],
  ['none alone', f({ enforceNodeAllocatable: ['none', 'pods'] }), 'invalid configuration: enforceNodeAllocatable (--enforce-node-allocatable) may not contain additional enforcements when "none" is specified'],
  ['enforceNodeAllocatable values', f({ enforceNodeAllocatable: ['everything'] }), 'invalid configuration: option "everything" specified for enforceNodeAllocatable (--enforce-node-allocatable). Valid options are "pods", "system-reserved", "system-reserved-compressible", "plat-reserved", "plat-reserved-compressible" or "none"'],
  ['enforcement needs cgroupsPerQOS', f({ cgroupsPerQOS: false }), 'invalid configuration: cgroupsPerQOS (--cgroups-per-qos) must be set to true when "pods" contained in enforceNodeAllocatable (--enforce-node-allocatable)'],
  ['hairpinMode', f({ hairpinMode: 'bridge' }), 'invalid configuration: option "bridge" specified for hairpinMode (--hairpin-mode). Valid options are "none", "hairpin-veth" or "promiscuous-bridge"'],
  ['imagePullCredentialsVerificationPolicy values', f({ imagePullCredentialsVerificationPolicy: 'Sometimes' }),
    'invalid configuration: option "Sometimes" specified for imagePullCredentialsVerificationPolicy. Valid options are "NeverVerify", "NeverVerifyPreloadedImages", "NeverVerifyAllowlistedImages" or "AlwaysVerify"'],
  ['preloadedImagesVerificationAllowlist needs the allow-list policy', f({ preloadedImagesVerificationAllowlist: ['registry.example/app'] }),
    'invalid configuration: can\'t set `preloadedImagesVerificationAllowlist` if `imagePullCredentialsVertificationPolicy` is not "NeverVerifyAllowlistedImages"'],
  ['preloadedImagesVerificationAllowlist patterns', f({ imagePullCredentialsVerificationPolicy: 'NeverVerifyAllowlistedImages', preloadedImagesVerificationAllowlist: ['registry.example/*/app'] }),
    "invalid configuration: invalid image pattern in `preloadedImagesVerificationAllowlist`: not a valid wildcard pattern, only patterns ending with '/*' are allowed: registry.example/*/app"],
  ['imagePullCredentialsVerificationPolicy needs its gate', gates({ KubeletEnsureSecretPulledImages: false }, { imagePullCredentialsVerificationPolicy: 'AlwaysVerify' }),
    'invalid configuration: `imagePullCredentialsVerificationPolicy` must not be set if KubeletEnsureSecretPulledImages feature gate is not enabled'],
  ['reservedSystemCPUs excludes the reserved cgroups', f({ reservedSystemCPUs: '0-1', systemReservedCgroup: '/system' }),
    "invalid configuration: can't use reservedSystemCPUs (--reserved-cpus) with systemReservedCgroup (--system-reserved-cgroup) or platReservedCgroup (--plat-reserved-cgroup)"],
  ['reservedSystemCPUs syntax', f({ reservedSystemCPUs: '3-1' }), 'invalid configuration: unable to parse reservedSystemCPUs (--reserved-cpus) 3-1, error: invalid range "3-1" (3 > 1)'],
  ['reservedMemory types', f({ reservedMemory: [{ numaNode: 0, limits: { cpu: '1' } }] }),
    'invalid configuration: the limit type "cpu" for NUMA node 0 is not supported, only [memory hugepages-<HugePageSize>] is accepted'],
  ['reservedMemory not zero', { args: ['--reserved-memory=0:memory=0'] }, 'invalid configuration: reserved memory may not be zero for NUMA node 0 and resource "memory"'],
  ['reservedMemory no duplicates', { args: ['--reserved-memory=0:memory=1Gi', '--reserved-memory=0:memory=2Gi'] },
    'invalid configuration: the reserved memory has a duplicate value for NUMA node 0 and resource "memory"'],
  ['userNamespaces.idsPerPod minimum', f({ userNamespaces: { idsPerPod: 1000 } }), 'invalid configuration: userNamespaces.idsPerPod must not be less than 65536'],
  ['userNamespaces.idsPerPod multiple of 65536', f({ userNamespaces: { idsPerPod: 65536 * 2 + 1 } }), 'invalid configuration: userNamespaces.idsPerPod must be a multiple of 65536'],
  ['userNamespaces.idsPerPod less than 1<<32', f({ userNamespaces: { idsPerPod: 2 ** 32 } }), 'invalid configuration: userNamespaces.idsPerPod must not be more than 4294967295'],
  ['showHiddenMetricsForVersion previous minor only', f({ showHiddenMetricsForVersion: '1.20' }),
    "--show-hidden-metrics-for-version must be omitted or have the value '1.34'. Only the previous minor version is allowed"],
  ['logging.format', { args: ['--logging-format=xml'] }, 'logging.format: Invalid value: "xml": Unsupported log format'],
  ['logging.format json needs LoggingBetaOptions', gates({ LoggingBetaOptions: false }, { logging: { format: 'json' } }),
    'logging.format: Forbidden: Log format json is disabled, see LoggingBetaOptions feature'],
  ['logging.verbosity fits int32', f({ logging: { verbosity: 3000000000 } }), 'logging.verbosity: Invalid value: 3000000000: Must be <= 2147483647'],
  ['logging.vmodule text only', { file: { logging: { format: 'json' } }, args: ['--vmodule=server=4'] }, 'logging.vmodule: Forbidden: Only supported for text log format'],
  ['logging.vmodule pattern', f({ logging: { vmodule: [{ filePattern: '', verbosity: 2 }] } }), 'logging.vmodule[0]: Required value: File pattern must not be empty'],
  ['logging.vmodule pattern syntax', f({ logging: { vmodule: [{ filePattern: 'a=b', verbosity: 2 }] } }), 'logging.vmodule[0]: Invalid value: "a=b": File pattern must not contain equal sign or comma'],
  ['logging text options need LoggingAlphaOptions', { args: ['--log-text-split-stream'] }, 'logging.options.text.splitStream: Forbidden: Feature LoggingAlphaOptions is disabled'],
  ['tracing sampling rate', f({ tracing: { samplingRatePerMillion: 2000000 } }),
    'tracing.samplingRatePerMillion: Invalid value: 2000000: sampling rate per million must be less than or equal to one million'],
  ['tracing endpoint scheme', f({ tracing: { endpoint: 'http://collector:4317' } }), 'tracing.endpoint: Invalid value: "http://collector:4317": unsupported scheme: http.'],
  ['memoryThrottlingFactor (0, 1]', f({ memoryThrottlingFactor: 1.5 }), 'invalid configuration: memoryThrottlingFactor 1.5 must be greater than 0 and less than or equal to 1.0'],
  ['containerRuntimeEndpoint required', { args: ['--container-runtime-endpoint='] }, 'invalid configuration: the containerRuntimeEndpoint was not specified or empty'],
  ['enableSystemLogQuery needs NodeLogQuery', f({ enableSystemLogQuery: true }), 'invalid configuration: NodeLogQuery feature gate is required for enableSystemLogQuery'],
  ['enableSystemLogQuery needs the log handler', gates({ NodeLogQuery: true }, { enableSystemLogQuery: true, enableSystemLogHandler: false }),
    'invalid configuration: enableSystemLogHandler is required for enableSystemLogQuery'],
  ['containerLogMaxWorkers at least 1', f({ containerLogMaxWorkers: 0 }), 'invalid configuration: containerLogMaxWorkers must be greater than or equal to 1'],
  ['containerLogMonitorInterval at least 3s', f({ containerLogMonitorInterval: '1s' }), 'invalid configuration: containerLogMonitorInterval must be a positive time duration greater than or equal to 3s'],
  ['containerLogMaxFiles at least 2', f({ containerLogMaxFiles: 1 }), 'invalid configuration: containerLogMaxFiles must be greater than 1'],
  ['containerLogMaxSize is a quantity', f({ containerLogMaxSize: '10MB' }), `invalid configuration: failed to parse container log max size "10MB": quantities must match the regular expression`],
  ['podLogsDir absolute', { dropIns: { '10-logs.conf': { podLogsDir: 'logs' } } }, 'invalid configuration: pod logs path "logs" must be absolute path'],
  ['podLogsDir normalized', f({ podLogsDir: '/var/log//pods/' }), 'invalid configuration: pod logs path "/var/log//pods/" must be normalized'],
  ['podLogsDir ASCII', f({ podLogsDir: '/var/log/pødś' }), 'invalid configuration: pod logs path "/var/log/pødś" mut contains ASCII characters only'],
  ['evictionHard signals', f({ evictionHard: { 'disk.available': '10%' } }), 'invalid configuration: evictionHard: unsupported eviction signal disk.available'],
  ['evictionHard percentage', { args: ['--eviction-hard=memory.available<150%'] }, 'invalid configuration: evictionHard: eviction percentage threshold memory.available must be <= 100%: 150%'],
  ['evictionHard quantity', f({ evictionHard: { 'memory.available': '-1Gi' } }), 'invalid configuration: evictionHard: eviction threshold memory.available must be positive: -1Gi'],
  ['evictionSoft needs a grace period', f({ evictionSoft: { 'memory.available': '1Gi' } }), 'invalid configuration: evictionSoft: grace period must be specified for the soft eviction threshold memory.available'],
  ['evictionSoftGracePeriod positive', f({ evictionSoft: { 'memory.available': '1Gi' }, evictionSoftGracePeriod: { 'memory.available': '-1m' } }),
    'invalid configuration: evictionSoftGracePeriod: invalid eviction grace period specified: -1m, must be a positive value'],
  ['evictionMinimumReclaim not negative', f({ evictionMinimumReclaim: { 'memory.available': '-1Mi' } }), 'invalid configuration: evictionMinimumReclaim: negative eviction minimum reclaim specified for memory.available'],
  ['systemReserved resources', { args: ['--system-reserved=gpu=1'] }, '--system-reserved value failed to parse: cannot reserve "gpu" resource'],
  ['platReserved quantities', f({ platReserved: { memory: '-1Gi' } }), '--plat-reserved value failed to parse: resource quantity for "memory" cannot be negative: -1Gi'],
  ['qosReserved percentages', gates({ QOSReserved: true }, { qosReserved: { memory: '150%' } }),
    'invalid configuration: qosReserved (--qos-reserved): failed to parse percentage "150%" for "memory" resource: percentage must be between 0 and 100'],
  ['qosReserved needs QOSReserved', f({ qosReserved: { memory: '50%' } }), 'invalid configuration: qosReserved (--qos-reserved) requires feature gate QOSReserved'],
  ['topologyManagerPolicyOptions needs TopologyManagerPolicyOptions', gates({ TopologyManagerPolicyOptions: false }, { topologyManagerPolicyOptions: { 'prefer-closest-numa-nodes': 'true' } }),
    'invalid configuration: topologyManagerPolicyOptions (--topology-manager-policy-options): requires feature gate TopologyManagerPolicyOptions'],
  ['topologyManagerPolicyOptions names', { args: ['--topology-manager-policy-options=closest=true'] },
    'invalid configuration: topologyManagerPolicyOptions (--topology-manager-policy-options): unknown Topology Manager Policy option: "closest"'],
  ['topologyManagerPolicyOptions beta options need their gate', gates({ TopologyManagerPolicyBetaOptions: false }, { topologyManagerPolicyOptions: { 'max-allowable-numa-nodes': '16' } }),
    'invalid configuration: topologyManagerPolicyOptions (--topology-manager-policy-options): Topology Manager Policy Beta-level Options not enabled, but option "max-allowable-numa-nodes" provided'],
  ['topologyManagerPolicyOptions values', f({ topologyManagerPolicyOptions: { 'max-allowable-numa-nodes': '4' } }),
    'invalid configuration: topologyManagerPolicyOptions (--topology-manager-policy-options): the minimum value of "max-allowable-numa-nodes" should not be less than 8'],
  ['tlsCipherSuites names', { args: ['--tls-cipher-suites=TLS_RSA_WITH_NULL_SHA'] }, "invalid configuration: tlsCipherSuites (--tls-cipher-suites): Cipher suite TLS_RSA_WITH_NULL_SHA not supported or doesn't exist"],
  ['tlsMinVersion names', f({ tlsMinVersion: 'TLS1.2' }), 'invalid configuration: tlsMinVersion (--tls-min-version): unknown tls version "TLS1.2"'],
  ['tlsMinVersion names, not an object\'s own', f({ tlsMinVersion: 'constructor' }), 'invalid configuration: tlsMinVersion (--tls-min-version): unknown tls version "constructor"'],
  ['tlsCertFile with tlsPrivateKeyFile', f({ tlsCertFile: '/etc/tls.crt' }),
    'invalid configuration: tlsCertFile (--tls-cert-file) and tlsPrivateKeyFile (--tls-private-key-file) must be given together'],
  ['cpuManagerPolicy', f({ cpuManagerPolicy: 'dynamic' }), 'invalid configuration: cpuManagerPolicy (--cpu-manager-policy): unknown policy: "dynamic"'],
  ['memoryManagerPolicy', f({ memoryManagerPolicy: 'static' }), 'invalid configuration: memoryManagerPolicy (--memory-manager-policy): unknown policy: "static"'],
  ['cgroupDriver', f({ cgroupDriver: 'cgroupv2' }), 'invalid configuration: cgroupDriver (--cgroup-driver) "cgroupv2" must be one of: "cgroupfs" or "systemd"'],
  ['configMapAndSecretChangeDetectionStrategy', f({ configMapAndSecretChangeDetectionStrategy: 'Poll' }),
    'invalid configuration: configMapAndSecretChangeDetectionStrategy: unknown configmap and secret manager mode: Poll'],
  ['authorization.mode', { args: ['--authorization-mode=RBAC'] }, 'invalid configuration: authorization.mode (--authorization-mode): unknown authorization mode RBAC'],
  ['address is an IP', f({ address: 'localhost' }), 'invalid configuration: address (--address) "localhost" is not a valid IP address'],
  ['healthzBindAddress is an IP', f({ healthzBindAddress: 'example.com' }), 'invalid configuration: healthzBindAddress (--healthz-bind-address) "example.com" is not a valid IP address'],
  ['featureGates unknown names', gates({ NoSuchGate: true }), 'unrecognized feature gate: NoSuchGate', GATES],
  ['featureGates locked gates', gates({ NodeSwap: false }), 'cannot set feature gate NodeSwap to false, feature is locked to true', GATES],
  ['featureGates dependencies', gates({ GracefulNodeShutdown: false }),
    'GracefulNodeShutdownBasedOnPodPriority is enabled, but depends on features that are disabled: [GracefulNodeShutdown]', GATES],
  ['--feature-gates unknown names', { args: ['--feature-gates=Bogus=true'] }, 'unrecognized feature gate: Bogus', GATES],
];

describe('NodeAgentConfiguration validation, rule by rule', () => {
  for (const [name, c, expected, prefix = VALIDATE] of ROWS) {
    it(name, () => {
      const r = build(c);
      assert.ok(r.error !== undefined, `expected an error containing ${JSON.stringify(expected)}, got a valid configuration`);
      assert.ok(r.error.startsWith(prefix), r.error);
      assert.ok(r.error.includes(expected), `expected ${JSON.stringify(expected)} in:\n${r.error}`);
    });
  }
});

describe('NodeAgentConfiguration validation as a whole', () => {
  it('accepts the option defaults, the file defaults, and the spec defaults with the file given', () => {
    ok();
    ok({ file: {} });
    ok({ file: { port: 10250, readOnlyPort: 0, healthzPort: 10248, nodeLeaseDurationSeconds: 40, containerLogMaxFiles: 5 } });
  });

  it('reports every problem at once, in brackets, with the config file path', () => {
    const r = build({ file: { port: 70000, eventBurst: -1, hairpinMode: 'x' } });
    assert.ok(r.error?.startsWith(`${VALIDATE}[`), r.error);
    for (const part of ['port (--port) 70000', 'eventBurst (--event-burst) -1', 'option "x" specified for hairpinMode']) assert.ok(r.error!.includes(part), part);
    assert.ok(r.error!.endsWith(`], path: ${r.file}`), r.error);
  });

  it('names the drop-in that set a bad value', () => {
    const r = build({ file: {}, dropIns: { '10-ok.conf': { maxPods: 20 }, '20-port.conf': { port: 70000 } } });
    assert.ok(r.error?.includes(`invalid configuration: port (--port) 70000 must be between 1 and 65535, inclusive (port set in ${r.configDir}/20-port.conf)`), r.error);
  });

  it('does not name a drop-in when the main file or a flag set the bad value last', () => {
    const fromFile = build({ file: { maxPods: -1 }, dropIns: { '10.conf': { podsPerCore: 1 } } });
    assert.ok(fromFile.error?.endsWith(`invalid configuration: maxPods (--max-pods) -1 must not be a negative number, path: ${fromFile.file}`), fromFile.error);
    const fromFlag = build({ file: {}, dropIns: { '10.conf': { maxPods: 20 } }, args: ['--max-pods=-1'] });
    assert.ok(fromFlag.error?.endsWith(`invalid configuration: maxPods (--max-pods) -1 must not be a negative number, path: ${fromFlag.file}`), fromFlag.error);
  });

  it('accepts a configuration that turns the gated fields off with their gates', () => {
    const c = ok({ file: { featureGates: { KubeletCrashLoopBackOffMax: false, KubeletEnsureSecretPulledImages: false } } });
    assert.equal(c.crashLoopBackOff.maxContainerRestartPeriod, undefined);
    assert.equal(c.imagePullCredentialsVerificationPolicy, undefined);
  });

  it('warns about GA gates, insecure ciphers and invalid cluster DNS addresses, and starts', () => {
    const r = build({ file: { featureGates: { ImageMaximumGCAge: true }, clusterDNS: ['10.0.0.10', 'dns.local'] }, args: ['--tls-cipher-suites=TLS_RSA_WITH_AES_128_CBC_SHA'] });
    assert.equal(r.error, undefined, r.error);
    assert.match(r.logs, /Setting GA feature gate ImageMaximumGCAge=true\. It will be removed in a future release\./);
    assert.match(r.logs, /Use of insecure cipher detected\. cipher="TLS_RSA_WITH_AES_128_CBC_SHA"/);
    assert.match(r.logs, /Invalid clusterDNS IP IP="dns.local"/);
  });
});
