// Every option of spec 03's option tables, in the spec's sections and order, with the spec's type
// and default, and what each does in plat: the NodeAgentConfiguration field it sets (upstream's
// AddKubeletConfigFlags binding), a flag a subsystem reads directly (--platconfig, --cert-dir,
// --node-ip, ...), or a refusal (behaviour plat does not implement and no config field to report).
// Defaults are the option defaults (upstream's "legacy" ones where they differ from the file's:
// --anonymous-auth true, --authorization-mode AlwaysAllow, --read-only-port 10255); they are what a
// run without --config starts from. Flags bound to a config field are deprecated, as upstream,
// except the few upstream keeps (-v, --vmodule, --log-flush-frequency, --provider-id) and those the
// spec marks "Not deprecated".
import { formatDuration, parseDuration } from '../../core/flags/duration.js';
import type { FlagSpec, FlagType } from '../../core/flags/types.js';
import { defaultNodeAgentConfiguration } from '../../core/nodeagent/defaults.js';
import {
  ipError, parseFeatureGates, parseHeaderMultimap, parseLangleMap, parseReservedMemory, parseTaints, validateWith,
} from './flag-values.js';
import { parseVModule } from '../../core/log-vmodule.js';

export const NODEAGENT_FLAG_SECTIONS = [
  'Identity, files and registration',
  'Serving, authentication, authorization',
  'Pods, static sources and runtime',
  'Resources, eviction, managers',
] as const;
type Section = (typeof NODEAGENT_FLAG_SECTIONS)[number];

/** Upstream's notice, with the rename. */
export const CONFIG_FILE_DEPRECATION =
  "This parameter should be set via the config file specified by the NodeAgent's --config flag. See https://kubernetes.io/docs/tasks/administer-cluster/kubelet-config-file/ for more information.";

export interface NodeAgentFlag {
  readonly spec: FlagSpec;
  /** The config field (dotted path) the flag sets when it is given. */
  readonly field?: string;
  /** The parsed flag value as the field's value (default: as is; durations become Go duration strings). */
  readonly toField?: (value: unknown) => unknown;
  /** Refused at start-up with this reason (plat does not do what the flag asks and has no field to report it). */
  readonly refuse?: string;
}

const NO_CONTAINERS = "plat's node agent runs no containers";

interface Opts {
  field?: string;
  toField?: (v: unknown) => unknown;
  refuse?: string;
  notDeprecated?: true;
  deprecated?: string;
  validate?: (v: unknown) => string | undefined;
  enum?: readonly string[];
  shorthand?: string;
}

function flag(section: Section, name: string, type: FlagType, def: unknown, help: string, o: Opts = {}): NodeAgentFlag {
  const deprecated = o.deprecated ?? (o.field && !o.notDeprecated ? CONFIG_FILE_DEPRECATION : undefined);
  const spec: FlagSpec = {
    name, type, help, section,
    ...(def !== undefined ? { default: def } : {}),
    ...(deprecated ? { deprecated, deprecatedShown: true as const } : {}),
    ...(o.validate ? { validate: o.validate } : {}),
    ...(o.enum ? { enum: o.enum } : {}),
    ...(o.shorthand ? { shorthand: o.shorthand } : {}),
  };
  const toField = o.toField ?? (type === 'duration' ? (v: unknown) => formatDuration(v as number) : undefined);
  return { spec, ...(o.field ? { field: o.field } : {}), ...(toField ? { toField } : {}), ...(o.refuse ? { refuse: o.refuse } : {}) };
}

const ms = parseDuration;
const D = defaultNodeAgentConfiguration();
const EVICTION_HARD_DEFAULT = Object.entries(D.evictionHard ?? {}).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k}<${v}`);

const S1: Section = 'Identity, files and registration';
const S2: Section = 'Serving, authentication, authorization';
const S3: Section = 'Pods, static sources and runtime';
const S4: Section = 'Resources, eviction, managers';

export const NODEAGENT_FLAGS: readonly NodeAgentFlag[] = [
  flag(S1, 'config', 'string', undefined, 'Initial configuration file (a NodeAgentConfiguration, YAML or JSON); relative paths start at the working directory; omit for built-in defaults; options override the file.'),
  flag(S1, 'config-dir', 'string', undefined, 'Directory of drop-ins (*.conf, lexical order) overriding defaults and the main file.'),
  flag(S1, 'platconfig', 'string', undefined, 'Connection settings file; given means API server mode, omitted means standalone mode.'),
  flag(S1, 'bootstrap-kubeconfig', 'string', undefined, 'If the --platconfig file does not exist, this file is used to request a client certificate; on success a settings file referencing the new certificate and key is written to the --platconfig path; cert and key go to --cert-dir.'),
  flag(S1, 'cert-dir', 'string', '/var/lib/nodeagent/pki', 'Certificate directory; ignored when cert and key files are given.'),
  flag(S1, 'root-dir', 'string', '/var/lib/nodeagent', 'Directory for node agent files (volume mounts and so on).'),
  flag(S1, 'hostname-override', 'string', undefined, 'Identification instead of the real hostname.'),
  flag(S1, 'provider-id', 'string', undefined, 'Unique node identifier in a machine database.', { field: 'providerID', notDeprecated: true }),
  flag(S1, 'node-ip', 'string', undefined, 'Node IP or comma-separated dual-stack IPs; unset: default IPv4 address, else default IPv6; `::` prefers IPv6.'),
  flag(S1, 'node-labels', 'map', undefined, 'Labels added at registration. Keys in the platform namespace must begin with an allowed prefix (the node-agent and node prefixes) or be in the allowed set.'),
  flag(S1, 'register-node', 'bool', true, 'Register with the API server; irrelevant without --platconfig.', { field: 'registerNode' }),
  flag(S1, 'register-with-taints', 'strings', undefined, 'Comma-separated `<key>=<value>:<effect>` taints; no-op if --register-node is false.',
    { field: 'registerWithTaints', toField: (v) => parseTaints(v as string[]), validate: validateWith(parseTaints) }),
  flag(S1, 'cloud-provider', 'string', undefined, 'Empty for none, `external` for an external provider.', { refuse: 'plat has no cloud-provider integration' }),
  flag(S1, 'lock-file', 'string', undefined, 'Alpha lock file path.'),
  flag(S1, 'exit-on-lock-contention', 'bool', undefined, 'Exit on lock-file contention.'),
  flag(S1, 'runonce', 'bool', undefined, 'Exit after spawning pods from static files or URLs; exclusive with --enable-server.', { field: 'runOnce' }),
  flag(S1, 'max-open-files', 'int', D.maxOpenFiles, 'Open-file limit of the process.', { field: 'maxOpenFiles' }),
  flag(S1, 'oom-score-adj', 'int', D.oomScoreAdj, 'Range -1000 to 1000.', { field: 'oomScoreAdj' }),
  flag(S1, 'feature-gates', 'map', undefined, 'Feature gates (key=True|False pairs).',
    { field: 'featureGates', toField: (v) => parseFeatureGates(v as Record<string, string>), validate: validateWith(parseFeatureGates) }),
  flag(S1, 'fail-cgroupv1', 'bool', D.failCgroupV1, 'Refuse to start on hosts using cgroup v1.', { field: 'failCgroupV1', notDeprecated: true }),
  flag(S1, 'fail-swap-on', 'bool', D.failSwapOn, 'Fail to start if swap is enabled.', { field: 'failSwapOn' }),
  flag(S1, 'seccomp-default', 'bool', undefined, 'Use the runtime default seccomp profile for all workloads.', { field: 'seccompDefault' }),

  flag(S2, 'address', 'string', D.address, 'Serving address (0.0.0.0 or :: for all).', { field: 'address', validate: ipError }),
  flag(S2, 'port', 'int', D.port, 'Serving port.', { field: 'port' }),
  flag(S2, 'read-only-port', 'int', 10255, 'Port without authentication or authorization; 0 disables.', { field: 'readOnlyPort' }),
  flag(S2, 'enable-server', 'bool', D.enableServer, 'Enable the server.', { field: 'enableServer' }),
  flag(S2, 'enable-debugging-handlers', 'bool', D.enableDebuggingHandlers, 'Log collection and local execution endpoints.', { field: 'enableDebuggingHandlers' }),
  flag(S2, 'healthz-bind-address', 'string', D.healthzBindAddress, 'Health server address.', { field: 'healthzBindAddress', validate: ipError }),
  flag(S2, 'healthz-port', 'int', D.healthzPort, 'Local health port; 0 disables.', { field: 'healthzPort' }),
  flag(S2, 'anonymous-auth', 'bool', true, 'Anonymous requests are `system:anonymous` in group `system:unauthenticated`.', { field: 'authentication.anonymous.enabled' }),
  flag(S2, 'authentication-token-webhook', 'bool', undefined, 'Use the token review API for bearer tokens.', { field: 'authentication.webhook.enabled' }),
  flag(S2, 'authentication-token-webhook-cache-ttl', 'duration', ms(D.authentication.webhook.cacheTTL), 'Cache.', { field: 'authentication.webhook.cacheTTL' }),
  flag(S2, 'authorization-mode', 'string', 'AlwaysAllow', '`AlwaysAllow` or `Webhook` (access review API).', { field: 'authorization.mode' }),
  flag(S2, 'authorization-webhook-cache-authorized-ttl', 'duration', ms(D.authorization.webhook.cacheAuthorizedTTL), 'Cache.', { field: 'authorization.webhook.cacheAuthorizedTTL' }),
  flag(S2, 'authorization-webhook-cache-unauthorized-ttl', 'duration', ms(D.authorization.webhook.cacheUnauthorizedTTL), 'Cache.', { field: 'authorization.webhook.cacheUnauthorizedTTL' }),
  flag(S2, 'client-ca-file', 'string', undefined, 'Client certificates signed by it authenticate as CommonName.', { field: 'authentication.x509.clientCAFile' }),
  flag(S2, 'tls-cert-file', 'string', undefined, 'HTTPS certificate (intermediates concatenated after it); otherwise a self-signed pair is written to --cert-dir.', { field: 'tlsCertFile' }),
  flag(S2, 'tls-private-key-file', 'string', undefined, 'HTTPS key matching --tls-cert-file.', { field: 'tlsPrivateKeyFile' }),
  flag(S2, 'tls-cipher-suites', 'strings', undefined, 'Omitted means runtime defaults.', { field: 'tlsCipherSuites', notDeprecated: true }),
  flag(S2, 'tls-min-version', 'string', undefined, 'VersionTLS10 to VersionTLS13.', { field: 'tlsMinVersion' }),
  flag(S2, 'rotate-certificates', 'bool', undefined, 'Request new client certificates near expiry.', { field: 'rotateCertificates' }),
  flag(S2, 'rotate-server-certificates', 'bool', undefined, 'Request and rotate serving certificates; needs feature RotateKubeletServerCertificate and approval of the requests.', { field: 'serverTLSBootstrap' }),
  flag(S2, 'image-credential-provider-bin-dir', 'string', undefined, 'Directory of credential provider plugin binaries.', { refuse: `${NO_CONTAINERS} and pulls no images` }),
  flag(S2, 'image-credential-provider-config', 'string', undefined, 'Plugin configuration file (JSON, YAML, YML) or a directory of such files.', { refuse: `${NO_CONTAINERS} and pulls no images` }),

  flag(S3, 'pod-manifest-path', 'string', undefined, 'Directory or file of static pods; dot-files ignored.', { field: 'staticPodPath' }),
  flag(S3, 'file-check-frequency', 'duration', ms(D.fileCheckFrequency), 'Config file check.', { field: 'fileCheckFrequency' }),
  flag(S3, 'manifest-url', 'string', undefined, 'URL of extra pod specs.', { field: 'staticPodURL' }),
  flag(S3, 'manifest-url-header', 'stringArray', undefined, 'HTTP headers for the URL as `name:value` pairs; same names kept in order; repeatable.',
    { field: 'staticPodURLHeader', toField: (v) => parseHeaderMultimap(v as string[]), validate: validateWith(parseHeaderMultimap) }),
  flag(S3, 'http-check-frequency', 'duration', ms(D.httpCheckFrequency), 'HTTP manifest check.', { field: 'httpCheckFrequency' }),
  flag(S3, 'sync-frequency', 'duration', ms(D.syncFrequency), 'Maximum period between syncs of containers and config.', { field: 'syncFrequency' }),
  flag(S3, 'container-runtime-endpoint', 'string', D.containerRuntimeEndpoint, 'Runtime endpoint (unix sockets on Linux; named pipe and TCP on other platforms).', { field: 'containerRuntimeEndpoint' }),
  flag(S3, 'image-service-endpoint', 'string', undefined, 'Defaults to the runtime endpoint.', { field: 'imageServiceEndpoint' }),
  flag(S3, 'runtime-cgroups', 'string', undefined, 'Cgroups for the runtime.', { refuse: NO_CONTAINERS }),
  flag(S3, 'runtime-request-timeout', 'duration', ms(D.runtimeRequestTimeout), 'Timeout for runtime requests except pull, logs, exec, attach.', { field: 'runtimeRequestTimeout' }),
  flag(S3, 'max-pods', 'int', D.maxPods, 'Maximum pods.', { field: 'maxPods' }),
  flag(S3, 'pods-per-core', 'int', undefined, 'Pods per core, capped by --max-pods; 0 disables.', { field: 'podsPerCore' }),
  flag(S3, 'pod-max-pids', 'int', D.podPidsLimit, 'Processes per pod; -1 uses node allocatable.', { field: 'podPidsLimit' }),
  flag(S3, 'pod-cidr', 'string', undefined, 'Standalone mode only.', { field: 'podCIDR' }),
  flag(S3, 'serialize-image-pulls', 'bool', D.serializeImagePulls, 'One pull at a time.', { field: 'serializeImagePulls' }),
  flag(S3, 'registry-qps', 'int', D.registryPullQPS, 'Pull rate; 0 unlimited.', { field: 'registryPullQPS' }),
  flag(S3, 'registry-burst', 'int', D.registryBurst, 'Used only when qps above 0.', { field: 'registryBurst' }),
  flag(S3, 'minimum-image-ttl-duration', 'duration', ms(D.imageMinimumGCAge), 'Minimum unused age before image collection.', { field: 'imageMinimumGCAge' }),
  flag(S3, 'image-gc-high-threshold', 'int', D.imageGCHighThresholdPercent, 'Disk percent above which collection always runs; range 0-100; 100 disables.', { field: 'imageGCHighThresholdPercent' }),
  flag(S3, 'image-gc-low-threshold', 'int', D.imageGCLowThresholdPercent, 'Percent below which never runs; less than the high value.', { field: 'imageGCLowThresholdPercent' }),
  flag(S3, 'maximum-dead-containers', 'int', -1, 'Deprecated; negative disables.', { refuse: NO_CONTAINERS }),
  flag(S3, 'maximum-dead-containers-per-container', 'int', 1, 'Deprecated.', { refuse: NO_CONTAINERS }),
  flag(S3, 'minimum-container-ttl-duration', 'duration', undefined, 'Deprecated.', { refuse: NO_CONTAINERS }),
  flag(S3, 'container-log-max-files', 'int', D.containerLogMaxFiles, 'At least 2.', { field: 'containerLogMaxFiles' }),
  flag(S3, 'container-log-max-size', 'string', D.containerLogMaxSize, 'Rotation size.', { field: 'containerLogMaxSize' }),
  flag(S3, 'streaming-connection-idle-timeout', 'duration', ms(D.streamingConnectionIdleTimeout), '0 means none; all connections last at most 4 hours.', { field: 'streamingConnectionIdleTimeout' }),
  flag(S3, 'volume-plugin-dir', 'string', D.volumePluginDir, 'Third-party volume plugins.', { field: 'volumePluginDir' }),
  flag(S3, 'volume-stats-agg-period', 'duration', ms(D.volumeStatsAggPeriod), 'Negative disables.', { field: 'volumeStatsAggPeriod' }),
  flag(S3, 'enable-controller-attach-detach', 'bool', D.enableControllerAttachDetach, 'Attach/detach controller manages volumes; node agent performs none.', { field: 'enableControllerAttachDetach' }),
  flag(S3, 'local-storage-capacity-isolation', 'bool', D.localStorageCapacityIsolation, 'Ephemeral storage isolation.', { field: 'localStorageCapacityIsolation' }),
  flag(S3, 'make-iptables-util-chains', 'bool', D.makeIPTablesUtilChains, 'Ensure utility rules.', { field: 'makeIPTablesUtilChains' }),
  flag(S3, 'hairpin-mode', 'string', D.hairpinMode, '`promiscuous-bridge`, `hairpin-veth`, `none`.', { field: 'hairpinMode' }),
  flag(S3, 'resolv-conf', 'string', D.resolvConf, 'Base for container DNS.', { field: 'resolvConf' }),
  flag(S3, 'cluster-dns', 'strings', undefined, 'DNS servers (all must serve the same records) used with dnsPolicy ClusterFirst.', { field: 'clusterDNS' }),
  flag(S3, 'cluster-domain', 'string', undefined, 'Search domain added to containers.', { field: 'clusterDomain' }),
  flag(S3, 'protect-kernel-defaults', 'bool', undefined, 'Error if kernel tunables differ from defaults.', { field: 'protectKernelDefaults' }),
  flag(S3, 'kernel-memcg-notification', 'bool', undefined, 'Use kernel notification for memory eviction.', { field: 'kernelMemcgNotification' }),
  flag(S3, 'allowed-unsafe-sysctls', 'strings', undefined, 'Allowed unsafe sysctls or patterns ending in `*`.', { field: 'allowedUnsafeSysctls' }),
  flag(S3, 'experimental-allocatable-ignore-eviction', 'bool', undefined, 'Deprecated, to be removed.', { refuse: NO_CONTAINERS }),
  flag(S3, 'experimental-mounter-path', 'string', undefined, 'Deprecated, to be removed.', { refuse: `${NO_CONTAINERS} and mounts no volumes` }),

  flag(S4, 'cgroup-driver', 'string', D.cgroupDriver, '`cgroupfs` or `systemd`.', { field: 'cgroupDriver' }),
  flag(S4, 'cgroup-root', 'string', undefined, 'Root cgroup for pods; empty means runtime default.', { field: 'cgroupRoot' }),
  flag(S4, 'cgroups-per-qos', 'bool', D.cgroupsPerQOS, 'QoS cgroup hierarchy.', { field: 'cgroupsPerQOS' }),
  flag(S4, 'nodeagent-cgroups', 'string', undefined, 'Cgroups to run the node agent in.', { field: 'nodeagentCgroups' }),
  flag(S4, 'system-cgroups', 'string', undefined, 'Cgroups for non-kernel processes; rolling back requires reboot.', { field: 'systemCgroups' }),
  flag(S4, 'cpu-cfs-quota', 'bool', D.cpuCFSQuota, 'Enforce CPU quota.', { field: 'cpuCFSQuota' }),
  flag(S4, 'cpu-cfs-quota-period', 'duration', ms(D.cpuCFSQuotaPeriod), 'Quota period.', { field: 'cpuCFSQuotaPeriod' }),
  flag(S4, 'cpu-manager-policy', 'string', D.cpuManagerPolicy, '`none` or `static`.', { field: 'cpuManagerPolicy' }),
  flag(S4, 'cpu-manager-policy-options', 'map', undefined, 'Tuning.', { field: 'cpuManagerPolicyOptions' }),
  flag(S4, 'cpu-manager-reconcile-period', 'duration', ms(D.cpuManagerReconcilePeriod), 'Alpha.', { field: 'cpuManagerReconcilePeriod' }),
  flag(S4, 'memory-manager-policy', 'string', D.memoryManagerPolicy, '`None` or `Static`.', { field: 'memoryManagerPolicy' }),
  flag(S4, 'topology-manager-policy', 'string', D.topologyManagerPolicy, '`none`, `best-effort`, `restricted`, `single-numa-node`.', { field: 'topologyManagerPolicy' }),
  flag(S4, 'topology-manager-policy-options', 'map', undefined, 'Tuning.', { field: 'topologyManagerPolicyOptions' }),
  flag(S4, 'topology-manager-scope', 'string', D.topologyManagerScope, '`container` or `pod`.', { field: 'topologyManagerScope' }),
  flag(S4, 'enforce-node-allocatable', 'strings', D.enforceNodeAllocatable, '`none`, `pods`, `system-reserved`, `system-reserved-compressible`, `plat-reserved`, `plat-reserved-compressible`; the four latter need the matching cgroup options; `none` alone.', { field: 'enforceNodeAllocatable' }),
  flag(S4, 'plat-reserved', 'map', undefined, 'Resources reserved for platform components: cpu, memory, pid, ephemeral-storage.', { field: 'platReserved' }),
  flag(S4, 'plat-reserved-cgroup', 'string', undefined, 'Top cgroup for them.', { field: 'platReservedCgroup' }),
  flag(S4, 'system-reserved', 'map', undefined, 'Same for non-platform components.', { field: 'systemReserved' }),
  flag(S4, 'system-reserved-cgroup', 'string', undefined, 'Top cgroup for them.', { field: 'systemReservedCgroup' }),
  flag(S4, 'reserved-cpus', 'string', undefined, 'CPU list/ranges; supersedes cpu counts in the reserved options.', { field: 'reservedSystemCPUs' }),
  flag(S4, 'reserved-memory', 'stringArray', undefined, 'Memory reservations per NUMA node (`0:memory=1Gi,hugepages-1M=2Gi`); total per type equals plat-reserved plus system-reserved plus eviction threshold.',
    { field: 'reservedMemory', toField: (v) => parseReservedMemory(v as string[]), validate: validateWith(parseReservedMemory) }),
  flag(S4, 'qos-reserved', 'map', undefined, 'Alpha; memory percentage; needs QOSReserved gate.', { field: 'qosReserved' }),
  flag(S4, 'eviction-hard', 'strings', EVICTION_HARD_DEFAULT, 'Hard thresholds (`memory.available<1Gi`).',
    { field: 'evictionHard', toField: (v) => parseLangleMap(v as string[]), validate: validateWith(parseLangleMap) }),
  flag(S4, 'eviction-soft', 'strings', undefined, 'Soft thresholds (`memory.available<1.5Gi`).',
    { field: 'evictionSoft', toField: (v) => parseLangleMap(v as string[]), validate: validateWith(parseLangleMap) }),
  flag(S4, 'eviction-soft-grace-period', 'map', undefined, 'Duration each soft threshold must hold.', { field: 'evictionSoftGracePeriod' }),
  flag(S4, 'eviction-minimum-reclaim', 'map', undefined, 'Minimum reclaimed amount.', { field: 'evictionMinimumReclaim' }),
  flag(S4, 'eviction-max-pod-grace-period', 'int', undefined, 'Seconds cap on soft-eviction termination; negative defers to the pod.', { field: 'evictionMaxPodGracePeriod' }),
  flag(S4, 'eviction-pressure-transition-period', 'duration', ms(D.evictionPressureTransitionPeriod), 'Wait before leaving a pressure condition.', { field: 'evictionPressureTransitionPeriod' }),
  flag(S4, 'node-status-update-frequency', 'duration', ms(D.nodeStatusUpdateFrequency), "Status post interval; must fit the controller manager's node monitor grace period.", { field: 'nodeStatusUpdateFrequency' }),
  flag(S4, 'node-status-max-images', 'int', D.nodeStatusMaxImages, 'Images in node status; -1 no cap.', { field: 'nodeStatusMaxImages' }),
  flag(S4, 'event-qps', 'int', D.eventRecordQPS, 'Event creation rate, 0 means 5.', { field: 'eventRecordQPS' }),
  flag(S4, 'event-burst', 'int', D.eventBurst, '0 means 10.', { field: 'eventBurst' }),
  flag(S4, 'plat-api-qps', 'int', D.platAPIQPS, 'API rate; 0 means 50; excludes events and heartbeats.', { field: 'platAPIQPS' }),
  flag(S4, 'plat-api-burst', 'int', D.platAPIBurst, '0 means 100.', { field: 'platAPIBurst' }),
  flag(S4, 'plat-api-content-type', 'string', D.contentType, 'Content type of requests to the API server.', { field: 'contentType' }),
  flag(S4, 'log-flush-frequency', 'duration', ms(D.logging.flushFrequency as string), 'Maximum interval between log flushes.', { field: 'logging.flushFrequency', notDeprecated: true }),
  flag(S4, 'logging-format', 'string', D.logging.format, '`text` or `json`.', { field: 'logging.format' }),
  flag(S4, 'log-text-info-buffer-size', 'quantity', undefined, 'Alpha; needs LoggingAlphaOptions.', { field: 'logging.options.text.infoBufferSize', toField: (v) => String(v) }),
  flag(S4, 'log-text-split-stream', 'bool', undefined, 'Alpha; needs LoggingAlphaOptions.', { field: 'logging.options.text.splitStream' }),
  flag(S4, 'contention-profiling', 'bool', undefined, 'Block profiling when profiling is on.', { field: 'enableContentionProfiling' }),
  flag(S4, 'v', 'level', 0, 'Log verbosity.', { field: 'logging.verbosity', notDeprecated: true, shorthand: 'v' }),
  flag(S4, 'vmodule', 'string', undefined, 'Per-file verbosity (text format), pattern=N,...', { field: 'logging.vmodule', notDeprecated: true,
    toField: (v) => parseVModule(v as string), validate: validateWith(parseVModule) }),
];
