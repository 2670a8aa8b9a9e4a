// upstream's ValidateKubeletConfiguration (pkg/kubelet/apis/config/validation/validation.go) for
// the fields plat knows, rule by rule and in upstream's order, with upstream's messages (the
// kubelet's names renamed: kubeAPIQPS → platAPIQPS, kubeReservedCgroup → platReservedCgroup, ...).
// Each problem lists the fields it is about, so the caller can say which file or flag set them.
// The checks upstream makes elsewhere at start-up (eviction thresholds, reserved resources, TLS
// names, policies, logging, ...) are in validation-extra.ts.
import { formatDuration, parseDuration } from '../../core/flags/duration.js';
import type { NodeAgentConfiguration } from '../../core/nodeagent/configuration.js';
import type { FeatureGates } from '../../core/nodeagent/feature-gates.js';
import { formatTaint, TAINT_EFFECTS } from './flag-values.js';
import { labelValueErrors, qualifiedNameErrors } from '../../core/api/selectors/label-syntax.js';
import { parseCpuSet } from './cpuset.js';
import { extraProblems } from './validation-extra.js';
import { goPathClean } from '../../core/go-path-clean.js';

export interface Problem { readonly message: string; readonly fields: readonly string[] }

const p = (message: string, ...fields: string[]): Problem => ({ message: `invalid configuration: ${message}`, fields });
const ms = (d: string): number => parseDuration(d);
/** Go's %v of a metav1.Duration value: the struct braces around Duration.String(). */
const goDur = (d: string): string => `{${formatDuration(ms(d))}}`;
const validPort = (n: number): boolean => Number.isInteger(n) && n >= 1 && n <= 65535;
const inRange = (n: number, lo: number, hi: number): boolean => n >= lo && n <= hi;

const TOPOLOGY_POLICIES = ['none', 'best-effort', 'restricted', 'single-numa-node'];
const PULL_POLICIES = ['NeverVerify', 'NeverVerifyPreloadedImages', 'NeverVerifyAllowlistedImages', 'AlwaysVerify'];

/** utiltaints.CheckTaintValidation's reason, or undefined. */
function taintError(t: { key: string; value?: string; effect: string }): string | undefined {
  const keyErrs = qualifiedNameErrors(t.key);
  if (keyErrs.length) return `invalid taint key: ${keyErrs.join('; ')}`;
  if (t.value) {
    const valueErrs = labelValueErrors(t.value);
    if (valueErrs.length) return `invalid taint value: ${valueErrs.join('; ')}`;
  }
  if (t.effect !== '' && !TAINT_EFFECTS.includes(t.effect)) return `invalid taint effect: ${t.effect}, unsupported taint effect`;
  return undefined;
}

/** Every problem of `kc` given the feature gates it runs with; empty when valid. */
export function validateConfiguration(kc: Readonly<NodeAgentConfiguration>, gates: FeatureGates): Problem[] {
  const e: Problem[] = [];
  if (kc.nodeLeaseDurationSeconds <= 0) e.push(p('nodeLeaseDurationSeconds must be greater than 0', 'nodeLeaseDurationSeconds'));
  if (kc.systemCgroups !== '' && kc.cgroupRoot === '') {
    e.push(p('systemCgroups (--system-cgroups) was specified and cgroupRoot (--cgroup-root) was not specified', 'systemCgroups', 'cgroupRoot'));
  }
  if (kc.eventBurst < 0) e.push(p(`eventBurst (--event-burst) ${kc.eventBurst} must not be a negative number`, 'eventBurst'));
  if (kc.eventRecordQPS < 0) e.push(p(`eventRecordQPS (--event-qps) ${kc.eventRecordQPS} must not be a negative number`, 'eventRecordQPS'));
  if (kc.healthzPort !== 0 && !validPort(kc.healthzPort)) {
    e.push(p(`healthzPort (--healthz-port) ${kc.healthzPort} must be between 1 and 65535, inclusive`, 'healthzPort'));
  }
  const quotaPeriod = ms(kc.cpuCFSQuotaPeriod);
  if (!gates.enabled('CPUCFSQuotaPeriod') && quotaPeriod !== 100) {
    e.push(p(`cpuCFSQuotaPeriod (--cpu-cfs-quota-period) ${goDur(kc.cpuCFSQuotaPeriod)} requires feature gate CustomCPUCFSQuotaPeriod`, 'cpuCFSQuotaPeriod'));
  }
  if (gates.enabled('CPUCFSQuotaPeriod') && !inRange(quotaPeriod, 1, 1000)) {
    e.push(p(`cpuCFSQuotaPeriod (--cpu-cfs-quota-period) ${goDur(kc.cpuCFSQuotaPeriod)} must be between 1ms and 1sec, inclusive`, 'cpuCFSQuotaPeriod'));
  }
  if (!inRange(kc.imageGCHighThresholdPercent, 0, 100)) {
    e.push(p(`imageGCHighThresholdPercent (--image-gc-high-threshold) ${kc.imageGCHighThresholdPercent} must be between 0 and 100, inclusive`, 'imageGCHighThresholdPercent'));
  }
  if (!inRange(kc.imageGCLowThresholdPercent, 0, 100)) {
    e.push(p(`imageGCLowThresholdPercent (--image-gc-low-threshold) ${kc.imageGCLowThresholdPercent} must be between 0 and 100, inclusive`, 'imageGCLowThresholdPercent'));
  }
  if (kc.imageGCLowThresholdPercent >= kc.imageGCHighThresholdPercent) {
    e.push(p(`imageGCLowThresholdPercent (--image-gc-low-threshold) ${kc.imageGCLowThresholdPercent} must be less than imageGCHighThresholdPercent (--image-gc-high-threshold) ${kc.imageGCHighThresholdPercent}`,
      'imageGCLowThresholdPercent', 'imageGCHighThresholdPercent'));
  }
  const minAge = ms(kc.imageMinimumGCAge);
  const maxAge = ms(kc.imageMaximumGCAge);
  if (maxAge !== 0 && !gates.enabled('ImageMaximumGCAge')) {
    e.push(p('ImageMaximumGCAge feature gate is required for NodeAgent configuration option imageMaximumGCAge', 'imageMaximumGCAge'));
  }
  if (minAge < 0) e.push(p(`imageMinimumGCAge ${formatDuration(minAge)} must not be negative`, 'imageMinimumGCAge'));
  if (maxAge < 0) e.push(p(`imageMaximumGCAge ${formatDuration(maxAge)} must not be negative`, 'imageMaximumGCAge'));
  if (maxAge > 0 && maxAge <= minAge) {
    e.push(p(`imageMaximumGCAge ${formatDuration(maxAge)} must be greater than imageMinimumGCAge ${formatDuration(minAge)}`, 'imageMaximumGCAge', 'imageMinimumGCAge'));
  }
  if (!inRange(kc.iptablesDropBit, 0, 31)) e.push(p(`iptablesDropBit (--iptables-drop-bit) ${kc.iptablesDropBit} must be between 0 and 31, inclusive`, 'iptablesDropBit'));
  if (!inRange(kc.iptablesMasqueradeBit, 0, 31)) {
    e.push(p(`iptablesMasqueradeBit (--iptables-masquerade-bit) ${kc.iptablesMasqueradeBit} must be between 0 and 31, inclusive`, 'iptablesMasqueradeBit'));
  }
  if (kc.platAPIBurst < 0) e.push(p(`platAPIBurst (--plat-api-burst) ${kc.platAPIBurst} must not be a negative number`, 'platAPIBurst'));
  if (kc.platAPIQPS < 0) e.push(p(`platAPIQPS (--plat-api-qps) ${kc.platAPIQPS} must not be a negative number`, 'platAPIQPS'));
  if (kc.nodeStatusMaxImages < -1) e.push(p(`nodeStatusMaxImages (--node-status-max-images) ${kc.nodeStatusMaxImages} must be -1 or greater`, 'nodeStatusMaxImages'));
  if (kc.maxOpenFiles < 0) e.push(p(`maxOpenFiles (--max-open-files) ${kc.maxOpenFiles} must not be a negative number`, 'maxOpenFiles'));
  if (kc.maxPods < 0) e.push(p(`maxPods (--max-pods) ${kc.maxPods} must not be a negative number`, 'maxPods'));
  if (!inRange(kc.oomScoreAdj, -1000, 1000)) e.push(p(`oomScoreAdj (--oom-score-adj) ${kc.oomScoreAdj} must be between -1000 and 1000, inclusive`, 'oomScoreAdj'));
  if (kc.podsPerCore < 0) e.push(p(`podsPerCore (--pods-per-core) ${kc.podsPerCore} must not be a negative number`, 'podsPerCore'));
  if (!validPort(kc.port)) e.push(p(`port (--port) ${kc.port} must be between 1 and 65535, inclusive`, 'port'));
  if (kc.readOnlyPort !== 0 && !validPort(kc.readOnlyPort)) {
    e.push(p(`readOnlyPort (--read-only-port) ${kc.readOnlyPort} must be between 0 and 65535, inclusive`, 'readOnlyPort'));
  }
  if (kc.registryBurst < 0) e.push(p(`registryBurst (--registry-burst) ${kc.registryBurst} must not be a negative number`, 'registryBurst'));
  if (kc.registryPullQPS < 0) e.push(p(`registryPullQPS (--registry-qps) ${kc.registryPullQPS} must not be a negative number`, 'registryPullQPS'));
  if (kc.maxParallelImagePulls !== undefined && kc.maxParallelImagePulls < 1) {
    e.push(p(`maxParallelImagePulls ${kc.maxParallelImagePulls} must be a positive number`, 'maxParallelImagePulls'));
  }
  if (kc.serializeImagePulls && kc.maxParallelImagePulls !== undefined && kc.maxParallelImagePulls > 1) {
    e.push(p('maxParallelImagePulls cannot be larger than 1 unless SerializeImagePulls (--serialize-image-pulls) is set to false', 'maxParallelImagePulls', 'serializeImagePulls'));
  }
  if (kc.serverTLSBootstrap && !gates.enabled('RotateKubeletServerCertificate')) {
    e.push(p(`serverTLSBootstrap ${kc.serverTLSBootstrap} requires feature gate RotateKubeletServerCertificate`, 'serverTLSBootstrap'));
  }
  if (kc.runOnce) e.push(p(`runOnce (--runOnce) ${kc.runOnce}, Runonce mode has been deprecated and should not be set`, 'runOnce'));

  for (const taint of kc.registerWithTaints ?? []) {
    // Upstream prints only the taint; plat adds why it is invalid.
    const why = taintError(taint);
    if (why) e.push({ message: `invalid taint: ${formatTaint(taint)}: ${why}`, fields: ['registerWithTaints'] });
    if (taint.timeAdded !== undefined) e.push(p('taint.TimeAdded is not nil', 'registerWithTaints'));
  }

  if (!TOPOLOGY_POLICIES.includes(kc.topologyManagerPolicy)) {
    e.push(p(`topologyManagerPolicy (--topology-manager-policy) "${kc.topologyManagerPolicy}" must be one of: [${TOPOLOGY_POLICIES.map((x) => `"${x}"`).join(' ')}]`, 'topologyManagerPolicy'));
  }
  if (kc.topologyManagerScope !== 'container' && kc.topologyManagerScope !== 'pod') {
    e.push(p(`topologyManagerScope (--topology-manager-scope) "${kc.topologyManagerScope}" must be one of: "container", or "pod"`, 'topologyManagerScope'));
  }

  const grace = ms(kc.shutdownGracePeriod);
  const graceCritical = ms(kc.shutdownGracePeriodCriticalPods);
  if (gates.enabled('GracefulNodeShutdown')) {
    if (graceCritical > grace) {
      e.push(p(`shutdownGracePeriodCriticalPods ${goDur(kc.shutdownGracePeriodCriticalPods)} must be <= shutdownGracePeriod ${goDur(kc.shutdownGracePeriod)}`,
        'shutdownGracePeriodCriticalPods', 'shutdownGracePeriod'));
    }
    if (grace < 0 || (grace > 0 && grace < 1000)) {
      e.push(p(`shutdownGracePeriod ${goDur(kc.shutdownGracePeriod)} must be either zero or otherwise >= 1 sec`, 'shutdownGracePeriod'));
    }
    if (graceCritical < 0 || (graceCritical > 0 && graceCritical < 1000)) {
      e.push(p(`shutdownGracePeriodCriticalPods ${goDur(kc.shutdownGracePeriodCriticalPods)} must be either zero or otherwise >= 1 sec`, 'shutdownGracePeriodCriticalPods'));
    }
  }
  if ((grace > 0 || graceCritical > 0) && !gates.enabled('GracefulNodeShutdown')) {
    e.push(p('specifying shutdownGracePeriod or shutdownGracePeriodCriticalPods requires feature gate GracefulNodeShutdown', 'shutdownGracePeriod', 'shutdownGracePeriodCriticalPods'));
  }
  const byPriority = kc.shutdownGracePeriodByPodPriority ?? [];
  if (gates.enabled('GracefulNodeShutdownBasedOnPodPriority') && byPriority.length !== 0 && (grace > 0 || graceCritical > 0)) {
    e.push(p('Cannot specify both shutdownGracePeriodByPodPriority and shutdownGracePeriod at the same time',
      'shutdownGracePeriodByPodPriority', 'shutdownGracePeriod', 'shutdownGracePeriodCriticalPods'));
  }
  if (!gates.enabled('GracefulNodeShutdownBasedOnPodPriority') && byPriority.length !== 0) {
    e.push(p('Specifying shutdownGracePeriodByPodPriority requires feature gate GracefulNodeShutdownBasedOnPodPriority', 'shutdownGracePeriodByPodPriority'));
  }

  const swap = kc.memorySwap.swapBehavior;
  if (gates.enabled('NodeSwap') && swap !== undefined && !['', 'NoSwap', 'LimitedSwap'].includes(swap)) {
    e.push(p(`memorySwap.swapBehavior "${swap}" must be one of: "", "LimitedSwap" or "NoSwap"`, 'memorySwap.swapBehavior'));
  }
  if (!gates.enabled('NodeSwap') && (swap ?? '') !== '') {
    e.push(p('memorySwap.swapBehavior cannot be set when NodeSwap feature flag is disabled', 'memorySwap.swapBehavior'));
  }

  const restart = kc.crashLoopBackOff.maxContainerRestartPeriod;
  if (gates.enabled('KubeletCrashLoopBackOffMax')) {
    if (restart === undefined) e.push(p('FeatureGate KubeletCrashLoopBackOffMax is enabled, CrashLoopBackOff.MaxContainerRestartPeriod must be set', 'crashLoopBackOff.maxContainerRestartPeriod'));
    else if (!inRange(Math.trunc(ms(restart)), 1000, 300000)) {
      e.push(p(`CrashLoopBackOff.MaxContainerRestartPeriod (got: ${ms(restart) / 1000} seconds) must be set between 1s and 300s`, 'crashLoopBackOff.maxContainerRestartPeriod'));
    }
  } else if (restart !== undefined) {
    e.push(p('FeatureGate KubeletCrashLoopBackOffMax not enabled, CrashLoopBackOff.MaxContainerRestartPeriod must not be set', 'crashLoopBackOff.maxContainerRestartPeriod'));
  }

  e.push(...enforceNodeAllocatableProblems(kc));

  if (!['none', 'hairpin-veth', 'promiscuous-bridge'].includes(kc.hairpinMode)) {
    e.push(p(`option "${kc.hairpinMode}" specified for hairpinMode (--hairpin-mode). Valid options are "none", "hairpin-veth" or "promiscuous-bridge"`, 'hairpinMode'));
  }

  const policy = kc.imagePullCredentialsVerificationPolicy ?? '';
  const allowlist = kc.preloadedImagesVerificationAllowlist ?? [];
  if (gates.enabled('KubeletEnsureSecretPulledImages')) {
    if (!PULL_POLICIES.includes(policy)) {
      e.push(p(`option "${policy}" specified for imagePullCredentialsVerificationPolicy. Valid options are ${PULL_POLICIES.slice(0, -1).map((x) => `"${x}"`).join(', ')} or "${PULL_POLICIES.at(-1)}"`,
        'imagePullCredentialsVerificationPolicy'));
    }
    if (allowlist.length > 0 && policy !== 'NeverVerifyAllowlistedImages') {
      e.push(p("can't set `preloadedImagesVerificationAllowlist` if `imagePullCredentialsVertificationPolicy` is not \"NeverVerifyAllowlistedImages\"",
        'preloadedImagesVerificationAllowlist', 'imagePullCredentialsVerificationPolicy'));
    } else {
      const bad = allowlistPatternError(allowlist);
      if (bad) e.push(p(`invalid image pattern in \`preloadedImagesVerificationAllowlist\`: ${bad}`, 'preloadedImagesVerificationAllowlist'));
    }
  } else {
    if (policy.length > 0) e.push(p('`imagePullCredentialsVerificationPolicy` must not be set if KubeletEnsureSecretPulledImages feature gate is not enabled', 'imagePullCredentialsVerificationPolicy'));
    if (allowlist.length > 0) e.push(p('`preloadedImagesVerificationAllowlist` must not be set if KubeletEnsureSecretPulledImages feature gate is not enabled', 'preloadedImagesVerificationAllowlist'));
  }

  if (kc.reservedSystemCPUs !== '') {
    if (kc.systemReservedCgroup !== '' || kc.platReservedCgroup !== '') {
      e.push(p("can't use reservedSystemCPUs (--reserved-cpus) with systemReservedCgroup (--system-reserved-cgroup) or platReservedCgroup (--plat-reserved-cgroup)",
        'reservedSystemCPUs', 'systemReservedCgroup', 'platReservedCgroup'));
    }
    const cpuErr = parseCpuSet(kc.reservedSystemCPUs).error;
    if (cpuErr) e.push(p(`unable to parse reservedSystemCPUs (--reserved-cpus) ${kc.reservedSystemCPUs}, error: ${cpuErr}`, 'reservedSystemCPUs'));
  }

  e.push(...extraProblems(kc, gates));

  if (gates.enabled('MemoryQoS') && kc.memoryThrottlingFactor === undefined) {
    e.push(p('memoryThrottlingFactor is required when MemoryQoS feature flag is enabled', 'memoryThrottlingFactor'));
  }
  if (kc.memoryThrottlingFactor !== undefined && (kc.memoryThrottlingFactor <= 0 || kc.memoryThrottlingFactor > 1.0)) {
    e.push(p(`memoryThrottlingFactor ${kc.memoryThrottlingFactor} must be greater than 0 and less than or equal to 1.0`, 'memoryThrottlingFactor'));
  }
  if (kc.containerRuntimeEndpoint === '') e.push(p('the containerRuntimeEndpoint was not specified or empty', 'containerRuntimeEndpoint'));
  if (kc.enableSystemLogQuery && !gates.enabled('NodeLogQuery')) e.push(p('NodeLogQuery feature gate is required for enableSystemLogQuery', 'enableSystemLogQuery'));
  if (kc.enableSystemLogQuery && !kc.enableSystemLogHandler) e.push(p('enableSystemLogHandler is required for enableSystemLogQuery', 'enableSystemLogQuery', 'enableSystemLogHandler'));
  if (kc.containerLogMaxWorkers < 1) e.push(p('containerLogMaxWorkers must be greater than or equal to 1', 'containerLogMaxWorkers'));
  if (ms(kc.containerLogMonitorInterval) < 3000) {
    e.push(p('containerLogMonitorInterval must be a positive time duration greater than or equal to 3s', 'containerLogMonitorInterval'));
  }
  if (kc.containerLogMaxFiles <= 1) e.push(p('containerLogMaxFiles must be greater than 1', 'containerLogMaxFiles'));
  e.push(...podLogsDirProblems(kc.podLogsDir));
  return e;
}

const SYSTEM = 'system-reserved';
const SYSTEM_C = 'system-reserved-compressible';
const PLAT = 'plat-reserved';
const PLAT_C = 'plat-reserved-compressible';

function enforceNodeAllocatableProblems(kc: Readonly<NodeAgentConfiguration>): Problem[] {
  const e: Problem[] = [];
  const F = 'enforceNodeAllocatable';
  const list = kc.enforceNodeAllocatable;
  const has = new Set(list);
  if (has.has(SYSTEM_C) && has.has(SYSTEM)) e.push(p(`both "${SYSTEM}" and "${SYSTEM_C}" cannot be specified together in enforceNodeAllocatable (--enforce-node-allocatable)`, F));
  if (has.has(PLAT_C) && has.has(PLAT)) e.push(p(`both "${PLAT}" and "${PLAT_C}" cannot be specified together in enforceNodeAllocatable (--enforce-node-allocatable)`, F));
  const unique = new Set<string>();
  for (const val of list) {
    if (unique.has(val)) {
      e.push(p(`duplicated enforcements "${val}" in enforceNodeAllocatable (--enforce-node-allocatable)`, F));
      continue;
    }
    unique.add(val);
    switch (val) {
      case 'pods':
        break;
      case SYSTEM: case SYSTEM_C:
        if (kc.systemReservedCgroup === '') {
          e.push(p(`systemReservedCgroup (--system-reserved-cgroup) must be specified when "${SYSTEM}" or "${SYSTEM_C}" included in enforceNodeAllocatable (--enforce-node-allocatable)`, F, 'systemReservedCgroup'));
        }
        break;
      case PLAT: case PLAT_C:
        if (kc.platReservedCgroup === '') {
          e.push(p(`platReservedCgroup (--plat-reserved-cgroup) must be specified when "${PLAT}" or "${PLAT_C}" included in enforceNodeAllocatable (--enforce-node-allocatable)`, F, 'platReservedCgroup'));
        }
        break;
      case 'none':
        if (list.length > 1) e.push(p('enforceNodeAllocatable (--enforce-node-allocatable) may not contain additional enforcements when "none" is specified', F));
        continue;
      default:
        e.push(p(`option "${val}" specified for enforceNodeAllocatable (--enforce-node-allocatable). Valid options are "pods", "${SYSTEM}", "${SYSTEM_C}", "${PLAT}", "${PLAT_C}" or "none"`, F));
        continue;
    }
    if (!kc.cgroupsPerQOS) e.push(p(`cgroupsPerQOS (--cgroups-per-qos) must be set to true when "${val}" contained in enforceNodeAllocatable (--enforce-node-allocatable)`, 'cgroupsPerQOS', F));
  }
  return e;
}

function podLogsDirProblems(dir: string): Problem[] {
  const e: Problem[] = [];
  const F = 'podLogsDir';
  if (dir === '') e.push(p('podLogsDir was not specified', F));
  if (!dir.startsWith('/')) e.push(p(`pod logs path "${dir}" must be absolute path`, F));
  if (goPathClean(dir) !== dir) e.push(p(`pod logs path "${dir}" must be normalized`, F));
  // The path ends up in metrics, so upstream keeps it ASCII (the typo is upstream's).
  if (/[^\x00-\x7f]/.test(dir)) e.push(p(`pod logs path "${dir}" mut contains ASCII characters only`, F));
  return e;
}

/** imagepullmanager.ValidateAllowlistImagesPatterns: the first bad pattern's reason. */
function allowlistPatternError(patterns: readonly string[]): string | undefined {
  for (const pattern of patterns) {
    if (pattern !== pattern.trim()) return `leading/trailing spaces are not allowed: ${pattern}`;
    const wildcard = pattern.endsWith('/*');
    const trimmed = wildcard ? pattern.slice(0, -1) : pattern;
    if (trimmed.length === 0) return `the supplied pattern is too short: ${pattern}`;
    if (trimmed.includes('*')) return `not a valid wildcard pattern, only patterns ending with '/*' are allowed: ${pattern}`;
    if (wildcard) {
      if (trimmed.length === 1) return 'at least registry hostname is required';
      continue;
    }
    const why = imageNameError(trimmed);
    if (why) return why === 'tagged' ? `neither tag nor digest is accepted in an image reference: ${pattern}` : `failed to parse as an image name: ${why}`;
  }
  return undefined;
}

const PATH_COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const DOMAIN_COMPONENT = /^(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])$/;

/** docker reference ParseNormalizedNamed, reduced to what the allowlist needs: a fully qualified name without tag or digest. */
function imageNameError(ref: string): string | undefined {
  const at = ref.indexOf('@');
  const lastSlash = ref.lastIndexOf('/');
  const colon = ref.indexOf(':', lastSlash + 1);
  if (at !== -1 || colon !== -1) return 'tagged';
  const parts = ref.split('/');
  const first = parts[0]!;
  const hasDomain = parts.length > 1 && (first.includes('.') || first.includes(':') || first === 'localhost');
  const domain = hasDomain ? first : undefined;
  const repo = hasDomain ? parts.slice(1) : parts;
  if (domain) {
    const [host, port] = domain.split(':') as [string, string | undefined];
    if (!host.split('.').every((c) => DOMAIN_COMPONENT.test(c)) || (port !== undefined && !/^\d+$/.test(port))) return 'invalid reference format';
  }
  if (repo.some((c) => c !== c.toLowerCase() && PATH_COMPONENT.test(c.toLowerCase()))) {
    return `invalid reference format: repository name (${repo.join('/')}) must be lowercase`;
  }
  if (!repo.every((c) => PATH_COMPONENT.test(c))) return 'invalid reference format';
  // A name without a registry is normalised (docker.io/library/...), which the allowlist refuses.
  return domain ? undefined : 'tagged';
}
