// The start-up checks upstream makes outside ValidateKubeletConfiguration, gathered so that every
// problem is reported at once: the OS rules (Linux: userNamespaces.idsPerPod), reserved memory,
// --show-hidden-metrics-for-version, logging (logsapi.Validate) and tracing, eviction thresholds
// (eviction.ParseThresholdConfig), reserved resources (parseResourceList, cm.ParseQOSReserved),
// TLS names (InitializeTLS), the managers' policies, the authorization mode (BuildAuthz), the
// container log size, and, plat's own, that the listen addresses are IP addresses. Messages are
// upstream's; where upstream's text does not say which field it is about, the field is prefixed.
import { isIP } from 'node:net';
import { parseQuantity } from '../../core/flags/quantity.js';
import type { NodeAgentConfiguration } from '../../core/nodeagent/configuration.js';
import { EMULATED_KUBERNETES_VERSION } from '../../core/nodeagent/feature-gate-specs.js';
import { showHiddenMetricsProblem } from '../../core/metrics/settings.js';
import type { FeatureGates } from '../../core/nodeagent/feature-gates.js';
import { cipherSuiteError, INSECURE_CIPHER_SUITES as INSECURE, TLS_VERSIONS } from '../../core/server/tls-names.js';
import { evictionProblem } from './eviction.js';
import { apiContentTypeProblem } from '../../core/flags/api-content-type.js';
import type { Problem } from './validation.js';

const p = (message: string, ...fields: string[]): Problem => ({ message: `invalid configuration: ${message}`, fields });
const raw = (message: string, ...fields: string[]): Problem => ({ message, fields });
const quote = (s: string): string => JSON.stringify(s);

const USERNS_UNIT = 65536;
const MAX_INT32 = 2 ** 31 - 1;

function reservedMemoryProblems(kc: Readonly<NodeAgentConfiguration>): Problem[] {
  const e: Problem[] = [];
  const seen = new Map<number, Set<string>>();
  for (const [i, r] of (kc.reservedMemory ?? []).entries()) {
    const types = seen.get(r.numaNode) ?? new Set<string>();
    seen.set(r.numaNode, types);
    for (const [name, value] of Object.entries(r.limits).sort(([a], [b]) => a.localeCompare(b))) {
      if (name !== 'memory' && !name.startsWith('hugepages-')) {
        e.push(p(`the limit type "${name}" for NUMA node ${r.numaNode} is not supported, only [memory hugepages-<HugePageSize>] is accepted`, 'reservedMemory'));
      }
      let q: number | undefined;
      try { q = parseQuantity(value); } catch (err) { e.push(raw(`reservedMemory[${i}].limits[${name}]: ${(err as Error).message}`, 'reservedMemory')); }
      if (q === 0) e.push(p(`reserved memory may not be zero for NUMA node ${r.numaNode} and resource "${name}"`, 'reservedMemory'));
      if (types.has(name)) e.push(p(`the reserved memory has a duplicate value for NUMA node ${r.numaNode} and resource "${name}"`, 'reservedMemory'));
      types.add(name);
    }
  }
  return e;
}

function loggingProblems(kc: Readonly<NodeAgentConfiguration>, gates: FeatureGates): Problem[] {
  const e: Problem[] = [];
  const l = kc.logging;
  const F = 'logging';
  if (l.format !== 'text' && l.format !== 'json') e.push(raw(`logging.format: Invalid value: ${quote(l.format)}: Unsupported log format`, 'logging.format'));
  else if (l.format === 'json' && !gates.enabled('LoggingBetaOptions')) {
    e.push(raw('logging.format: Forbidden: Log format json is disabled, see LoggingBetaOptions feature', 'logging.format'));
  }
  if (l.verbosity > MAX_INT32) e.push(raw(`logging.verbosity: Invalid value: ${l.verbosity}: Must be <= ${MAX_INT32}`, 'logging.verbosity'));
  const vmodule = l.vmodule ?? [];
  if (vmodule.length > 0 && l.format !== '' && l.format !== 'text') e.push(raw('logging.vmodule: Forbidden: Only supported for text log format', 'logging.vmodule', 'logging.format'));
  vmodule.forEach((item, i) => {
    if (item.filePattern === '') e.push(raw(`logging.vmodule[${i}]: Required value: File pattern must not be empty`, 'logging.vmodule'));
    if (/[=,]/.test(item.filePattern)) e.push(raw(`logging.vmodule[${i}]: Invalid value: ${quote(item.filePattern)}: File pattern must not contain equal sign or comma`, 'logging.vmodule'));
    if (item.verbosity > MAX_INT32) e.push(raw(`logging.vmodule[${i}]: Invalid value: ${item.verbosity}: Must be <= ${MAX_INT32}`, 'logging.vmodule'));
  });
  for (const [stream, gate] of [['text', 'LoggingAlphaOptions'], ['json', 'LoggingBetaOptions']] as const) {
    const o = l.options?.[stream];
    if (!o || gates.enabled(gate)) continue;
    if (o.splitStream) e.push(raw(`logging.options.${stream}.splitStream: Forbidden: Feature ${gate} is disabled`, `${F}.options.${stream}.splitStream`));
    if (o.infoBufferSize !== undefined && parseQuantity(o.infoBufferSize) !== 0) {
      e.push(raw(`logging.options.${stream}.infoBufferSize: Forbidden: Feature ${gate} is disabled`, `${F}.options.${stream}.infoBufferSize`));
    }
  }
  return e;
}

function tracingProblems(kc: Readonly<NodeAgentConfiguration>): Problem[] {
  const e: Problem[] = [];
  const t = kc.tracing;
  if (!t) return e;
  const rate = t.samplingRatePerMillion;
  if (rate !== undefined && rate < 0) e.push(raw(`tracing.samplingRatePerMillion: Invalid value: ${rate}: sampling rate must be positive`, 'tracing.samplingRatePerMillion'));
  if (rate !== undefined && rate > 1_000_000) {
    e.push(raw(`tracing.samplingRatePerMillion: Invalid value: ${rate}: sampling rate per million must be less than or equal to one million`, 'tracing.samplingRatePerMillion'));
  }
  if (t.endpoint !== undefined) {
    const endpoint = t.endpoint.includes('//') ? t.endpoint : `dns://${t.endpoint}`;
    const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(endpoint)?.[1]?.toLowerCase() ?? '';
    if (!['dns', 'unix', 'unix-abstract'].includes(scheme)) {
      e.push(raw(`tracing.endpoint: Invalid value: ${quote(endpoint)}: unsupported scheme: ${scheme}.  Options are none, dns, unix, or unix-abstract.  See https://github.com/grpc/grpc/blob/master/doc/naming.md`, 'tracing.endpoint'));
    }
  }
  return e;
}

/** parseResourceList for --system-reserved / --plat-reserved. */
function reservedProblem(m: Readonly<Record<string, string>> | undefined, flag: string, field: string): Problem | undefined {
  for (const [k, v] of Object.entries(m ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    const fail = (why: string) => raw(`--${flag} value failed to parse: ${why}`, field);
    if (!['cpu', 'memory', 'ephemeral-storage', 'pid'].includes(k)) return fail(`cannot reserve "${k}" resource`);
    let q: number;
    try { q = parseQuantity(v); } catch (err) { return fail(`failed to parse quantity "${v}" for "${k}" resource: ${(err as Error).message}`); }
    if (q < 0) return fail(`resource quantity for "${k}" cannot be negative: ${v}`);
  }
  return undefined;
}

/** cm.ParseQOSReserved (only read while the QOSReserved gate is on, as upstream). */
function qosReservedProblem(m: Readonly<Record<string, string>> | undefined): Problem | undefined {
  for (const [k, v] of Object.entries(m ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    const fail = (why: string) => p(`qosReserved (--qos-reserved): ${why}`, 'qosReserved');
    if (k !== 'memory') return fail(`cannot reserve "${k}" resource`);
    const why = !v.endsWith('%') ? `percentage expected, got '${v}'`
      : !/^[+-]?\d+$/.test(v.replace(/%+$/, '')) ? `invalid number in percentage '${v}'`
      : Number(v.replace(/%+$/, '')) < 0 || Number(v.replace(/%+$/, '')) > 100 ? 'percentage must be between 0 and 100' : undefined;
    if (why) return fail(`failed to parse percentage "${v}" for "${k}" resource: ${why}`);
  }
  return undefined;
}

const TOPOLOGY_OPTIONS: Readonly<Record<string, 'stable' | 'beta' | 'alpha'>> = {
  'prefer-closest-numa-nodes': 'stable',
  'max-allowable-numa-nodes': 'beta',
};
const DEFAULT_MAX_ALLOWABLE_NUMA_NODES = 8;

/** topologymanager.NewPolicyOptions: known options, their stage's gate, their values. */
function topologyOptionProblems(options: Readonly<Record<string, string>> | undefined, gates: FeatureGates): Problem[] {
  const names = Object.keys(options ?? {}).sort();
  if (names.length === 0) return [];
  const fail = (why: string) => [p(`topologyManagerPolicyOptions (--topology-manager-policy-options): ${why}`, 'topologyManagerPolicyOptions')];
  if (!gates.enabled('TopologyManagerPolicyOptions')) return fail('requires feature gate TopologyManagerPolicyOptions');
  for (const name of names) {
    const value = options![name]!;
    const stage = TOPOLOGY_OPTIONS[name];
    if (!stage) return fail(`unknown Topology Manager Policy option: "${name}"`);
    if (stage === 'beta' && !gates.enabled('TopologyManagerPolicyBetaOptions')) return fail(`Topology Manager Policy Beta-level Options not enabled, but option "${name}" provided`);
    if (name === 'prefer-closest-numa-nodes' && !/^(1|t|T|true|TRUE|True|0|f|F|false|FALSE|False)$/.test(value)) {
      return fail(`bad value for option "${name}": strconv.ParseBool: parsing ${quote(value)}: invalid syntax`);
    }
    if (name === 'max-allowable-numa-nodes') {
      if (!/^[+-]?\d+$/.test(value)) return fail(`unable to convert policy option to integer "${name}": strconv.Atoi: parsing ${quote(value)}: invalid syntax`);
      if (Number(value) < DEFAULT_MAX_ALLOWABLE_NUMA_NODES) return fail(`the minimum value of "${name}" should not be less than ${DEFAULT_MAX_ALLOWABLE_NUMA_NODES}`);
    }
  }
  return [];
}

export function extraProblems(kc: Readonly<NodeAgentConfiguration>, gates: FeatureGates): Problem[] {
  const e: Problem[] = [];
  e.push(...reservedMemoryProblems(kc));
  const contentType = apiContentTypeProblem(kc.contentType ?? '');
  if (contentType) e.push(raw(`contentType: Invalid value: ${quote(String(kc.contentType))}: ${contentType}`, 'contentType'));

  const ids = kc.userNamespaces?.idsPerPod;
  if (ids !== undefined) {
    if (ids < USERNS_UNIT) e.push(p(`userNamespaces.idsPerPod must not be less than ${USERNS_UNIT}`, 'userNamespaces.idsPerPod'));
    else if (ids % USERNS_UNIT !== 0) e.push(p(`userNamespaces.idsPerPod must be a multiple of ${USERNS_UNIT}`, 'userNamespaces.idsPerPod'));
    else if (ids > 2 ** 32 - 1) e.push(p(`userNamespaces.idsPerPod must not be more than ${2 ** 32 - 1}`, 'userNamespaces.idsPerPod'));
  }
  const hiddenMetrics = showHiddenMetricsProblem(kc.showHiddenMetricsForVersion, EMULATED_KUBERNETES_VERSION);
  if (hiddenMetrics) e.push(raw(hiddenMetrics, 'showHiddenMetricsForVersion'));
  e.push(...loggingProblems(kc, gates));
  e.push(...tracingProblems(kc));

  const eviction = evictionProblem(kc);
  if (eviction) e.push(p(`${eviction.field}: ${eviction.message}`, eviction.field));
  for (const r of [reservedProblem(kc.systemReserved, 'system-reserved', 'systemReserved'), reservedProblem(kc.platReserved, 'plat-reserved', 'platReserved')]) {
    if (r) e.push(r);
  }
  if (gates.enabled('QOSReserved')) {
    const q = qosReservedProblem(kc.qosReserved);
    if (q) e.push(q);
  } else if (Object.keys(kc.qosReserved ?? {}).length) {
    // Upstream ignores the field without its gate; a setting that silently does nothing is refused here.
    e.push(p('qosReserved (--qos-reserved) requires feature gate QOSReserved', 'qosReserved'));
  }
  e.push(...topologyOptionProblems(kc.topologyManagerPolicyOptions, gates));

  const cipherErr = cipherSuiteError(kc.tlsCipherSuites ?? []);
  if (cipherErr) e.push(p(`tlsCipherSuites (--tls-cipher-suites): ${cipherErr}`, 'tlsCipherSuites'));
  if (kc.tlsMinVersion !== '' && TLS_VERSIONS[kc.tlsMinVersion] === undefined) e.push(p(`tlsMinVersion (--tls-min-version): unknown tls version ${quote(kc.tlsMinVersion)}`, 'tlsMinVersion'));
  if ((kc.tlsCertFile === '') !== (kc.tlsPrivateKeyFile === '')) {
    e.push(p('tlsCertFile (--tls-cert-file) and tlsPrivateKeyFile (--tls-private-key-file) must be given together', 'tlsCertFile', 'tlsPrivateKeyFile'));
  }

  if (!['none', 'static'].includes(kc.cpuManagerPolicy)) e.push(p(`cpuManagerPolicy (--cpu-manager-policy): unknown policy: ${quote(kc.cpuManagerPolicy)}`, 'cpuManagerPolicy'));
  if (!['None', 'Static'].includes(kc.memoryManagerPolicy)) e.push(p(`memoryManagerPolicy (--memory-manager-policy): unknown policy: ${quote(kc.memoryManagerPolicy)}`, 'memoryManagerPolicy'));
  if (!['cgroupfs', 'systemd'].includes(kc.cgroupDriver)) e.push(p(`cgroupDriver (--cgroup-driver) ${quote(kc.cgroupDriver)} must be one of: "cgroupfs" or "systemd"`, 'cgroupDriver'));
  if (!['Get', 'Cache', 'Watch'].includes(kc.configMapAndSecretChangeDetectionStrategy)) {
    e.push(p(`configMapAndSecretChangeDetectionStrategy: unknown configmap and secret manager mode: ${kc.configMapAndSecretChangeDetectionStrategy}`, 'configMapAndSecretChangeDetectionStrategy'));
  }
  if (kc.authorization.mode !== 'AlwaysAllow' && kc.authorization.mode !== 'Webhook') {
    e.push(p(`authorization.mode (--authorization-mode): unknown authorization mode ${kc.authorization.mode}`, 'authorization.mode'));
  }
  try {
    parseQuantity(kc.containerLogMaxSize);
  } catch (err) {
    e.push(p(`failed to parse container log max size ${quote(kc.containerLogMaxSize)}: ${(err as Error).message}`, 'containerLogMaxSize'));
  }
  for (const [field, flag] of [['address', 'address'], ['healthzBindAddress', 'healthz-bind-address']] as const) {
    const v = kc[field];
    if (v !== '' && isIP(v) === 0) e.push(p(`${field} (--${flag}) ${quote(v)} is not a valid IP address`, field));
  }
  return e;
}

/** Upstream logs these and goes on. */
export function configurationWarnings(kc: Readonly<NodeAgentConfiguration>): Array<{ msg: string; fields?: Record<string, unknown> }> {
  const w: Array<{ msg: string; fields?: Record<string, unknown> }> = [];
  for (const cipher of kc.tlsCipherSuites ?? []) {
    if (INSECURE.has(cipher)) w.push({ msg: 'Use of insecure cipher detected.', fields: { cipher } });
  }
  if (kc.tlsMinVersion === 'VersionTLS13' && (kc.tlsCipherSuites ?? []).length) {
    w.push({ msg: 'Warning: TLS 1.3 cipher suites are not configurable, ignoring --tls-cipher-suites' });
  }
  for (const ip of kc.clusterDNS ?? []) if (isIP(ip) === 0) w.push({ msg: 'Invalid clusterDNS IP', fields: { IP: ip } });
  return w;
}
