// The node agent's flag catalogue against spec 03's option tables: every option, in the spec's
// sections, with its type and default; the deprecation rule (flags bound to a config field print
// upstream's notice, except the ones upstream and the spec keep); option defaults that are exactly
// what a run without --config starts from; and --help listing deprecated and refused options.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Flags } from '../../../core/flags/flag-set.js';
import { formatDuration } from '../../../core/flags/duration.js';
import { isOfType, zeroValue } from '../../../core/flags/parse-value.js';
import { nodeAgentFlagCatalogue, NODEAGENT_FLAG_SECTIONS } from '../../../host/flag-catalogue/nodeagent.js';
import { CONFIG_FILE_DEPRECATION, legacyDefaults, NODEAGENT_FLAGS } from '../../../plugins/nodeagent/index.js';

const SPEC_OPTIONS: Record<(typeof NODEAGENT_FLAG_SECTIONS)[number], string[]> = {
  'Identity, files and registration': ['config', 'config-dir', 'platconfig', 'bootstrap-kubeconfig', 'cert-dir', 'root-dir', 'hostname-override',
    'provider-id', 'node-ip', 'node-labels', 'register-node', 'register-with-taints', 'cloud-provider', 'lock-file', 'exit-on-lock-contention',
    'runonce', 'max-open-files', 'oom-score-adj', 'feature-gates', 'fail-cgroupv1', 'fail-swap-on', 'seccomp-default'],
  'Serving, authentication, authorization': ['address', 'port', 'read-only-port', 'enable-server', 'enable-debugging-handlers', 'healthz-bind-address',
    'healthz-port', 'anonymous-auth', 'authentication-token-webhook', 'authentication-token-webhook-cache-ttl', 'authorization-mode',
    'authorization-webhook-cache-authorized-ttl', 'authorization-webhook-cache-unauthorized-ttl', 'client-ca-file', 'tls-cert-file',
    'tls-private-key-file', 'tls-cipher-suites', 'tls-min-version', 'rotate-certificates', 'rotate-server-certificates',
    'image-credential-provider-bin-dir', 'image-credential-provider-config'],
  'Pods, static sources and runtime': ['pod-manifest-path', 'file-check-frequency', 'manifest-url', 'manifest-url-header', 'http-check-frequency',
    'sync-frequency', 'container-runtime-endpoint', 'image-service-endpoint', 'runtime-cgroups', 'runtime-request-timeout', 'max-pods',
    'pods-per-core', 'pod-max-pids', 'pod-cidr', 'serialize-image-pulls', 'registry-qps', 'registry-burst', 'minimum-image-ttl-duration',
    'image-gc-high-threshold', 'image-gc-low-threshold', 'maximum-dead-containers', 'maximum-dead-containers-per-container',
    'minimum-container-ttl-duration', 'container-log-max-files', 'container-log-max-size', 'streaming-connection-idle-timeout',
    'volume-plugin-dir', 'volume-stats-agg-period', 'enable-controller-attach-detach', 'local-storage-capacity-isolation',
    'make-iptables-util-chains', 'hairpin-mode', 'resolv-conf', 'cluster-dns', 'cluster-domain', 'protect-kernel-defaults',
    'kernel-memcg-notification', 'allowed-unsafe-sysctls', 'experimental-allocatable-ignore-eviction', 'experimental-mounter-path'],
  'Resources, eviction, managers': ['cgroup-driver', 'cgroup-root', 'cgroups-per-qos', 'nodeagent-cgroups', 'system-cgroups', 'cpu-cfs-quota',
    'cpu-cfs-quota-period', 'cpu-manager-policy', 'cpu-manager-policy-options', 'cpu-manager-reconcile-period', 'memory-manager-policy',
    'topology-manager-policy', 'topology-manager-policy-options', 'topology-manager-scope', 'enforce-node-allocatable', 'plat-reserved',
    'plat-reserved-cgroup', 'system-reserved', 'system-reserved-cgroup', 'reserved-cpus', 'reserved-memory', 'qos-reserved', 'eviction-hard',
    'eviction-soft', 'eviction-soft-grace-period', 'eviction-minimum-reclaim', 'eviction-max-pod-grace-period', 'eviction-pressure-transition-period',
    'node-status-update-frequency', 'node-status-max-images', 'event-qps', 'event-burst', 'plat-api-qps', 'plat-api-burst', 'plat-api-content-type',
    'log-flush-frequency', 'logging-format', 'log-text-info-buffer-size', 'log-text-split-stream', 'contention-profiling', 'v', 'vmodule'],
};

/** The spec's "Not deprecated" options, and the ones upstream keeps undeprecated. */
const NOT_DEPRECATED = new Set(['provider-id', 'fail-cgroupv1', 'tls-cipher-suites', 'log-flush-frequency', 'v', 'vmodule']);

const byName = new Map(nodeAgentFlagCatalogue.map((s) => [s.name, s]));

function get(o: unknown, dotted: string): unknown {
  return dotted.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), o);
}

describe('the node agent flag catalogue', () => {
  it('holds every option of spec 03, once, in the spec\'s sections and order', () => {
    assert.equal(byName.size, nodeAgentFlagCatalogue.length);
    for (const [section, names] of Object.entries(SPEC_OPTIONS)) {
      assert.deepEqual(nodeAgentFlagCatalogue.filter((s) => s.section === section).map((s) => s.name), names, section);
    }
    assert.equal(nodeAgentFlagCatalogue.length, Object.values(SPEC_OPTIONS).flat().length);
  });

  it('has the spec\'s types and defaults', () => {
    const expect: Array<[string, string, unknown]> = [
      ['cert-dir', 'string', '/var/lib/nodeagent/pki'], ['root-dir', 'string', '/var/lib/nodeagent'], ['register-node', 'bool', true],
      ['max-open-files', 'int', 1000000], ['oom-score-adj', 'int', -999], ['fail-cgroupv1', 'bool', true], ['fail-swap-on', 'bool', true],
      ['address', 'string', '0.0.0.0'], ['port', 'int', 10250], ['read-only-port', 'int', 10255], ['enable-server', 'bool', true],
      ['healthz-bind-address', 'string', '127.0.0.1'], ['healthz-port', 'int', 10248], ['anonymous-auth', 'bool', true],
      ['authentication-token-webhook-cache-ttl', 'duration', 120_000], ['authorization-mode', 'string', 'AlwaysAllow'],
      ['authorization-webhook-cache-authorized-ttl', 'duration', 300_000], ['authorization-webhook-cache-unauthorized-ttl', 'duration', 30_000],
      ['file-check-frequency', 'duration', 20_000], ['http-check-frequency', 'duration', 20_000], ['sync-frequency', 'duration', 60_000],
      ['runtime-request-timeout', 'duration', 120_000], ['max-pods', 'int', 110], ['pod-max-pids', 'int', -1], ['serialize-image-pulls', 'bool', true],
      ['registry-qps', 'int', 5], ['registry-burst', 'int', 10], ['minimum-image-ttl-duration', 'duration', 120_000],
      ['image-gc-high-threshold', 'int', 85], ['image-gc-low-threshold', 'int', 80], ['maximum-dead-containers', 'int', -1],
      ['maximum-dead-containers-per-container', 'int', 1], ['container-log-max-files', 'int', 5], ['container-log-max-size', 'string', '10Mi'],
      ['streaming-connection-idle-timeout', 'duration', 14_400_000], ['volume-plugin-dir', 'string', '/usr/libexec/platform/nodeagent-plugins/volume/exec/'],
      ['volume-stats-agg-period', 'duration', 60_000], ['hairpin-mode', 'string', 'promiscuous-bridge'], ['resolv-conf', 'string', '/etc/resolv.conf'],
      ['cgroup-driver', 'string', 'cgroupfs'], ['cgroups-per-qos', 'bool', true], ['cpu-cfs-quota', 'bool', true], ['cpu-cfs-quota-period', 'duration', 100],
      ['cpu-manager-policy', 'string', 'none'], ['cpu-manager-reconcile-period', 'duration', 10_000], ['memory-manager-policy', 'string', 'None'],
      ['topology-manager-policy', 'string', 'none'], ['topology-manager-scope', 'string', 'container'], ['enforce-node-allocatable', 'strings', ['pods']],
      ['eviction-pressure-transition-period', 'duration', 300_000], ['node-status-update-frequency', 'duration', 10_000],
      ['node-status-max-images', 'int', 50], ['event-qps', 'int', 50], ['event-burst', 'int', 100], ['plat-api-qps', 'int', 50],
      ['plat-api-burst', 'int', 100], ['plat-api-content-type', 'string', 'application/vnd.platform.protobuf'], ['log-flush-frequency', 'duration', 5000],
      ['logging-format', 'string', 'text'], ['log-text-info-buffer-size', 'quantity', undefined], ['node-labels', 'map', undefined],
      ['feature-gates', 'map', undefined], ['manifest-url-header', 'stringArray', undefined],
    ];
    for (const [name, type, def] of expect) {
      const s = byName.get(name);
      assert.ok(s, name);
      assert.equal(s.type, type, `${name} type`);
      assert.deepEqual(s.default, def, `${name} default`);
    }
    for (const s of nodeAgentFlagCatalogue) if (s.default !== undefined) assert.ok(isOfType(s.type, s.default), s.name);
  });

  it('deprecates the flags bound to a config field, with upstream\'s notice, and no others', () => {
    for (const f of NODEAGENT_FLAGS) {
      const expected = f.field !== undefined && !NOT_DEPRECATED.has(f.spec.name);
      assert.equal(f.spec.deprecated === CONFIG_FILE_DEPRECATION, expected, f.spec.name);
      if (expected) assert.equal(f.spec.deprecatedShown, true, `${f.spec.name} stays in --help`);
    }
    assert.match(CONFIG_FILE_DEPRECATION, /^This parameter should be set via the config file specified by the NodeAgent's --config flag\. See https:\/\/kubernetes\.io\/docs\/tasks\/administer-cluster\/kubelet-config-file\/ for more information\.$/);
  });

  it('marks unsupported exactly the options plat refuses, and binds or lets subsystems read all the others', () => {
    const refused = nodeAgentFlagCatalogue.filter((s) => s.unsupported !== undefined).map((s) => s.name).sort();
    assert.deepEqual(refused, ['cloud-provider', 'experimental-allocatable-ignore-eviction', 'experimental-mounter-path', 'image-credential-provider-bin-dir',
      'image-credential-provider-config', 'maximum-dead-containers', 'maximum-dead-containers-per-container', 'minimum-container-ttl-duration', 'runtime-cgroups']);
    const unbound = NODEAGENT_FLAGS.filter((f) => !f.field && !f.refuse).map((f) => f.spec.name).sort();
    assert.deepEqual(unbound, ['bootstrap-kubeconfig', 'cert-dir', 'config', 'config-dir', 'exit-on-lock-contention', 'hostname-override', 'lock-file',
      'node-ip', 'node-labels', 'platconfig', 'root-dir']);
  });

  it('prints option defaults that are what a run without --config starts from', () => {
    const base = legacyDefaults();
    for (const f of NODEAGENT_FLAGS) {
      if (!f.field) continue;
      const { type } = f.spec;
      if (f.spec.default === undefined && (f.toField || !['bool', 'string', 'int', 'duration'].includes(type))) continue;
      const flagValue = f.spec.default ?? zeroValue(type);
      const asField = f.toField ? f.toField(flagValue) : flagValue;
      const fieldValue = get(base, f.field) ?? (type === 'duration' ? formatDuration(0) : zeroValue(type));
      assert.deepEqual(asField, fieldValue, `--${f.spec.name} vs ${f.field}`);
    }
  });

  it('renders --help with every section, deprecated options marked, refused ones listed', () => {
    const flags = new Flags();
    for (const s of nodeAgentFlagCatalogue) flags.define(s);
    const help = flags.help('plat nodeagent [flags]', 'The node agent.', 0);
    for (const section of NODEAGENT_FLAG_SECTIONS) assert.ok(help.includes(`\n${section}:\n`), section);
    for (const name of Object.values(SPEC_OPTIONS).flat()) assert.ok(help.includes(name === 'v' ? '-v, --v Level' : `--${name}`), name);
    assert.match(help, /--port int +Serving port\. \(default 10250\) \(DEPRECATED: This parameter should be set via the config file/);
    assert.match(help, /--cloud-provider string +Empty for none, `external` for an external provider\. \(not supported yet: plat has no cloud-provider integration\)/);
  });
});
