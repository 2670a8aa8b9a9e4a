// --config: a PlatControllerManagerConfiguration sets the flags of the same meaning, below the
// command line; every problem names the file and the field; fields whose flag nothing implements
// are refused like the flag. Applied to the controller-manager role's real flags (the signing part
// maps onto the csrsigning plugin's --cluster-signing-* flags).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { declareFlags } from '../../core/boot.js';
import { Flags } from '../../core/flags/flag-set.js';
import { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import { profiles } from '../../host/profiles.js';
import { applyControllerManagerConfig, CONFIG_FIELDS } from '../../plugins/controller-manager/index.js';
import { fieldPath } from '../../plugins/controller-manager/config-schema.js';
import { bootRefusal } from '../helpers/boot-refusal.js';
import { runPlat } from '../helpers/run-plat.js';
import { tempDir } from '../helpers/plat.js';

function roleFlags(extra: readonly Plugin[] = [], argv: string[] = []): Flags {
  const profile = profiles['controller-manager']!;
  const host = new Host({ role: profile.role });
  for (const p of [...profile.plugins, ...extra]) p.apply(host, undefined);
  const flags = new Flags();
  declareFlags(host, profile, flags);
  flags.parse(argv);
  return flags;
}

function file(text: string, ext = 'yaml'): string {
  const f = path.join(tempDir(), `cm.${ext}`);
  writeFileSync(f, text);
  return f;
}

const HEAD = 'apiVersion: platcontrollermanager.config.platform/v1alpha1\nkind: PlatControllerManagerConfiguration\n';

describe('--config (PlatControllerManagerConfiguration)', () => {
  it('sets every mapped flag from its field', () => {
    const f = file(`${HEAD}
Generic:
  Port: 10300
  Address: 127.0.0.2
  MinResyncPeriod: 1h
  ClientConnection: {kubeconfig: /etc/plat/cm.conf, qps: 50.5, burst: 100}
  ControllerStartInterval: 2s
  LeaderElection:
    leaderElect: false
    leaseDuration: 30s
    renewDeadline: 20s
    retryPeriod: 5s
    resourceLock: leases
    resourceName: my-lock
    resourceNamespace: my-ns
  Controllers: ["*", "-marker-a"]
  Debugging: {enableProfiling: false, enableContentionProfiling: false}
KubeCloudShared: {UseServiceAccountCredentials: true}
CSRSigningController:
  ClusterSigningDuration: 720h
  NodeAgentClientSignerConfiguration: {CertFile: /pki/nc.crt, KeyFile: /pki/nc.key}
  PlatAPIServerClientSignerConfiguration: {CertFile: /pki/ac.crt, KeyFile: /pki/ac.key}
NamespaceController: {NamespaceSyncPeriod: 10m, ConcurrentNamespaceSyncs: 3}
SAController: {ServiceAccountKeyFile: /pki/sa.key, RootCAFile: /pki/ca.crt, ConcurrentSATokenSyncs: 2}
LegacySATokenCleaner: {CleanUpPeriod: 720h}
NodeLifecycleController:
  NodeEvictionRate: 0.5
  SecondaryNodeEvictionRate: 0.05
  NodeStartupGracePeriod: 2m
  NodeMonitorGracePeriod: 40s
  LargeClusterSizeThreshold: 20
  UnhealthyZoneThreshold: 0.7
`);
    const flags = roleFlags();
    applyControllerManagerConfig(f, flags);
    const expect: Record<string, unknown> = {
      'secure-port': 10300, 'bind-address': '127.0.0.2', 'min-resync-period': 3_600_000, platconfig: '/etc/plat/cm.conf',
      'plat-api-qps': 50.5, 'plat-api-burst': 100, 'controller-start-interval': 2000, 'leader-elect': false,
      'leader-elect-lease-duration': 30_000, 'leader-elect-renew-deadline': 20_000, 'leader-elect-retry-period': 5000,
      'leader-elect-resource-lock': 'leases', 'leader-elect-resource-name': 'my-lock', 'leader-elect-resource-namespace': 'my-ns',
      controllers: ['*', '-marker-a'], profiling: false, 'contention-profiling': false, 'use-service-account-credentials': true, 'cluster-signing-duration': 720 * 3_600_000,
      'cluster-signing-nodeagent-client-cert-file': '/pki/nc.crt', 'cluster-signing-nodeagent-client-key-file': '/pki/nc.key',
      'cluster-signing-plat-apiserver-client-cert-file': '/pki/ac.crt', 'cluster-signing-plat-apiserver-client-key-file': '/pki/ac.key',
      'namespace-sync-period': 600_000, 'concurrent-namespace-syncs': 3,
      'service-account-private-key-file': '/pki/sa.key', 'root-ca-file': '/pki/ca.crt', 'concurrent-serviceaccount-token-syncs': 2,
      'legacy-service-account-token-clean-up-period': 720 * 3_600_000,
      'node-eviction-rate': 0.5, 'secondary-node-eviction-rate': Math.fround(0.05), 'node-startup-grace-period': 120_000,
      'node-monitor-grace-period': 40_000, 'large-cluster-size-threshold': 20, 'unhealthy-zone-threshold': Math.fround(0.7),
    };
    for (const [name, value] of Object.entries(expect)) assert.deepEqual(flags.get(name), value, name);
    assert.equal(flags.get('cluster-signing-cert-file'), '', 'unset fields leave their flag alone');
    assert.equal(flags.sourceOf('leader-elect'), `${f}: Generic.LeaderElection.leaderElect`);
  });

  it('GarbageCollectorController sets the garbage collector\'s flags; a zero ConcurrentGCSyncs reads as unset, GCIgnoredResources is refused', () => {
    const flags = roleFlags();
    applyControllerManagerConfig(file(`${HEAD}GarbageCollectorController: {EnableGarbageCollector: false, ConcurrentGCSyncs: 5}\n`), flags);
    assert.equal(flags.get('enable-garbage-collector'), false);
    assert.equal(flags.get('concurrent-gc-syncs'), 5);
    const zero = roleFlags();
    applyControllerManagerConfig(file(`${HEAD}GarbageCollectorController: {ConcurrentGCSyncs: 0}\n`), zero);
    assert.equal(zero.get('concurrent-gc-syncs'), 20);
    const ignored = file(`${HEAD}GarbageCollectorController: {GCIgnoredResources: [{Group: "", Resource: secrets}]}\n`);
    assert.throws(() => applyControllerManagerConfig(ignored, roleFlags()),
      { message: `${ignored}: GarbageCollectorController.GCIgnoredResources: not supported (the garbage collector ignores upstream's default (events) only)` });
  });

  it('every mapped field names a flag of the role', () => {
    const names = new Set(roleFlags().specs().map((s) => s.name));
    for (const [field, flag] of Object.entries(CONFIG_FIELDS)) assert.ok(names.has(flag), `${field} -> --${flag}`);
  });

  it('gives way to the command line; JSON works as well as YAML', () => {
    const f = file(JSON.stringify({
      apiVersion: 'platcontrollermanager.config.platform/v1alpha1', kind: 'PlatControllerManagerConfiguration',
      Generic: { Port: 10300, LeaderElection: { leaderElect: false, resourceName: 'from-file' } },
    }), 'json');
    const flags = roleFlags([], ['--secure-port=10400', '--leader-elect']);
    applyControllerManagerConfig(f, flags);
    assert.equal(flags.get('secure-port'), 10400);
    assert.equal(flags.get('leader-elect'), true);
    assert.equal(flags.get('leader-elect-resource-name'), 'from-file');
  });

  it('zero values of fields upstream defaults read as unset: their flags keep their defaults (the command line\'s zeros do not)', () => {
    const f = file(`${HEAD}Generic:
  Address: ""
  MinResyncPeriod: 0s
  Controllers: []
  ClientConnection: {qps: 0, burst: 0}
  LeaderElection: {leaseDuration: 0s, renewDeadline: 0h0m0s, retryPeriod: "0", resourceLock: ""}
CSRSigningController: {ClusterSigningDuration: 0s}
NamespaceController: {NamespaceSyncPeriod: 0s, ConcurrentNamespaceSyncs: 0}
NodeLifecycleController: {NodeStartupGracePeriod: 0s, NodeMonitorGracePeriod: 0s}
`);
    const fields = ['bind-address', 'min-resync-period', 'controllers', 'plat-api-qps', 'plat-api-burst', 'leader-elect-lease-duration',
      'leader-elect-renew-deadline', 'leader-elect-retry-period', 'leader-elect-resource-lock', 'cluster-signing-duration',
      'namespace-sync-period', 'concurrent-namespace-syncs', 'node-startup-grace-period', 'node-monitor-grace-period'];
    const defaults = roleFlags();
    const flags = roleFlags();
    applyControllerManagerConfig(f, flags);
    for (const name of fields) {
      assert.deepEqual(flags.get(name), defaults.get(name), name);
      assert.equal(flags.sourceOf(name), 'default', name);
    }
    assert.deepEqual(defaults.get('controllers'), ['*']);
    assert.equal(defaults.get('plat-api-qps'), 20);
    const cli = roleFlags([], ['--plat-api-qps=0', '--controllers=']);
    applyControllerManagerConfig(f, cli);
    assert.equal(cli.get('plat-api-qps'), 0);
    assert.deepEqual(cli.get('controllers'), []);
  });

  it('reads plain scalars by YAML 1.1, as upstream (sigs.k8s.io/yaml) does: yes/no booleans, 0-prefixed octal', () => {
    const f = file(`${HEAD}Generic:
  Port: 020000
  LeaderElection: {leaderElect: no, resourceName: "on"}
  Debugging: {enableProfiling: Off}
KubeCloudShared: {UseServiceAccountCredentials: yes}
`);
    const flags = roleFlags();
    applyControllerManagerConfig(f, flags);
    const expect: Record<string, unknown> = {
      'secure-port': 0o20000, 'leader-elect': false, 'leader-elect-resource-name': 'on', profiling: false, 'use-service-account-credentials': true,
    };
    for (const [name, value] of Object.entries(expect)) assert.deepEqual(flags.get(name), value, name);
  });

  const refused: { name: string; text: string; problems: string[] }[] = [
    { name: 'an unknown field, with its path', text: `${HEAD}Generic:\n  LeaderElection:\n    leaseDurations: 3s\n  Colour: blue\nExtra: 1\n`,
      problems: ['Generic.LeaderElection.leaseDurations: unknown field', 'Generic.Colour: unknown field', 'Extra: unknown field'] },
    { name: 'values of the wrong type', text: `${HEAD}Generic:\n  Port: "10257"\n  Controllers: csrsigning\n  ClientConnection: {qps: fast, burst: 1.5}\n`,
      problems: ['Generic.Port: must be a whole number', 'Generic.Controllers: must be a list', 'Generic.ClientConnection.qps: must be a number', 'Generic.ClientConnection.burst: must be a whole number'] },
    { name: 'a list item of the wrong type', text: `${HEAD}Generic:\n  Controllers: ["*", 3]\n`, problems: ['Generic.Controllers[1]: must be a string'] },
    { name: 'a duration written as a number', text: `${HEAD}Generic:\n  LeaderElection: {leaseDuration: 15}\n`,
      problems: ['Generic.LeaderElection.leaseDuration: must be a string'] },
    { name: 'bad durations, as the flags would report them', text: `${HEAD}Generic:\n  LeaderElection: {leaseDuration: 15}\n  MinResyncPeriod: soon\n`.replace('15', '"15"'),
      problems: ['Generic.LeaderElection.leaseDuration: invalid value "15" for flag "leader-elect-lease-duration": time: missing unit in duration "15"',
        'Generic.MinResyncPeriod: invalid value "soon" for flag "min-resync-period": time: invalid duration "soon"'] },
    { name: 'contention profiling, which V8 cannot do', text: `${HEAD}Generic:\n  Debugging: {enableContentionProfiling: true}\n`,
      problems: ['Generic.Debugging.enableContentionProfiling: invalid value "true" for flag "contention-profiling": not supported: block profiling is Go\'s (runtime.SetBlockProfileRate) and V8 has no block profile'] },
    { name: 'fields whose flags plat does not implement', text: `${HEAD}Generic:\n  ClientConnection: {contentType: application/json, acceptContentTypes: application/json}\n  LeaderMigration: {leaderName: x}\n`,
      problems: [
        'Generic.ClientConnection.acceptContentTypes: not supported (plat sends and accepts JSON only)',
        'Generic.LeaderMigration: not supported (leader migration is not implemented by plat)'] },
    { name: 'a content type plat\'s client cannot send', text: `${HEAD}Generic:\n  ClientConnection: {contentType: text/plain}\n`,
      problems: ['Generic.ClientConnection.contentType: invalid value "text/plain" for flag "plat-api-content-type": no serializers registered for text/plain (plat\'s client takes application/vnd.platform.protobuf, application/json or application/yaml and sends JSON for each)'] },
    { name: 'another controller\'s part', text: `${HEAD}DeploymentController: {ConcurrentDeploymentSyncs: 5}\nKubeCloudShared: {}\n`,
      problems: ['DeploymentController: not supported (plat has no such controller)'] },
    { name: 'an unknown node lifecycle field', text: `${HEAD}NodeLifecycleController:\n  PodEvictionTimeout: 5m\n  LargeClusterSizeThreshold: -3\n  UnhealthyZoneThreshold: -0.1\n  NodeMonitorGracePeriod: -1s\n  Colour: blue\n`,
      problems: ['NodeLifecycleController.Colour: unknown field'] },
    { name: 'the pod eviction timeout (plat runs no pods)', text: `${HEAD}NodeLifecycleController:\n  PodEvictionTimeout: 5m\n  LargeClusterSizeThreshold: -3\n  UnhealthyZoneThreshold: -0.1\n  NodeMonitorGracePeriod: -1s\n`,
      problems: [
        'NodeLifecycleController.PodEvictionTimeout: not supported (plat evicts no pods: it runs none)'] },
    { name: 'a node lifecycle rate written as text', text: `${HEAD}NodeLifecycleController:\n  LargeClusterSizeThreshold: -3\n  UnhealthyZoneThreshold: -0.1\n  NodeMonitorGracePeriod: -1s\n  NodeEvictionRate: "0.1"\n`,
      problems: ['NodeLifecycleController.NodeEvictionRate: must be a number'] },
    { name: 'node lifecycle values out of range, as the flags would report them', text: `${HEAD}NodeLifecycleController:\n  LargeClusterSizeThreshold: -3\n  UnhealthyZoneThreshold: -0.1\n  NodeMonitorGracePeriod: -1s\n`,
      problems: [
        'NodeLifecycleController.LargeClusterSizeThreshold: invalid value "-3" for flag "large-cluster-size-threshold": must not be negative',
        'NodeLifecycleController.UnhealthyZoneThreshold: invalid value "-0.1" for flag "unhealthy-zone-threshold": must not be negative',
        'NodeLifecycleController.NodeMonitorGracePeriod: invalid value "-1s" for flag "node-monitor-grace-period": must be greater than 0'] },
    { name: 'cloud fields of KubeCloudShared', text: `${HEAD}KubeCloudShared:\n  ClusterName: prod\n  NodeSyncPeriod: 10s\n  CloudProvider: {Name: aws}\n  Colour: blue\n`,
      problems: ['KubeCloudShared.Colour: unknown field'] },
    { name: 'cloud fields of KubeCloudShared, well formed', text: `${HEAD}KubeCloudShared:\n  ClusterName: prod\n  NodeSyncPeriod: 10s\n  CloudProvider: {Name: aws}\n`,
      problems: ['KubeCloudShared.ClusterName: not supported (--cluster-name is not implemented by plat yet)',
        'KubeCloudShared.NodeSyncPeriod: not supported (plat has no cloud provider)',
        'KubeCloudShared.CloudProvider.Name: not supported (--cloud-provider is not implemented by plat yet)'] },
    { name: 'another kind', text: 'apiVersion: kubecontrollermanager.config.k8s.io/v1alpha1\nkind: KubeControllerManagerConfiguration\n',
      problems: ['apiVersion "kubecontrollermanager.config.k8s.io/v1alpha1", kind "KubeControllerManagerConfiguration": expected apiVersion platcontrollermanager.config.platform/v1alpha1, kind PlatControllerManagerConfiguration'] },
    { name: 'a document that is no mapping', text: '- a\n- b\n', problems: ['expected a PlatControllerManagerConfiguration mapping'] },
    // The yaml package's first line names the place; the source it quotes below is left out, and
    // so is the colon that introduces it.
    { name: 'text that is not YAML', text: 'Generic: [\n',
      problems: ['not valid YAML or JSON: Flow sequence in block collection must be sufficiently indented and end with a ] at line 2, column 1'] },
    { name: 'a tab for indentation', text: 'Generic:\n\tLeaderElection: {}\n', problems: ['not valid YAML or JSON: Tabs are not allowed as indentation at line 2, column 1'] },
    { name: 'several YAML documents, in plat\'s words (not the YAML library\'s)', text: `${HEAD}---\n${HEAD}`,
      problems: ['holds more than one YAML document (separated by ---); a PlatControllerManagerConfiguration file holds exactly one'] },
  ];
  for (const r of refused) {
    it(`refuses ${r.name}, naming file and field`, () => {
      const f = file(r.text);
      assert.throws(() => applyControllerManagerConfig(f, roleFlags()), (e: Error & { exitCode?: number }) => {
        assert.equal(e.exitCode, 1);
        const lines = e.message.split('\n');
        for (const l of lines) assert.ok(l.startsWith(`${f}: `), l);
        assert.deepEqual(lines.map((l) => l.slice(f.length + 2)).sort(), [...r.problems].sort());
        return true;
      });
    });
  }

  it('field paths read as upstream writes them', () => {
    assert.equal(fieldPath('/Generic/LeaderElection/leaseDuration'), 'Generic.LeaderElection.leaseDuration');
    assert.equal(fieldPath('/Generic/Controllers/2'), 'Generic.Controllers[2]');
    assert.equal(fieldPath(''), '');
  });

  it('stops `plat controller-manager` with exit 1 and the field, before anything runs', () => {
    const f = file(`${HEAD}Generic:\n  LeaderElection: {renewDeadline: never}\n`);
    const r = runPlat(['controller-manager', '--config', f, '--master=https://127.0.0.1:1'], { cwd: tempDir() });
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stderr, `plat controller-manager: ${f}: Generic.LeaderElection.renewDeadline: invalid value "never" for flag "leader-elect-renew-deadline": time: invalid duration "never"\n`);
    const missing = runPlat(['controller-manager', '--config', '/nonexistent/cm.yaml', '--master=https://127.0.0.1:1'], { cwd: tempDir() });
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /\/nonexistent\/cm\.yaml: cannot read the controller manager configuration: no such file or directory/);
  });

  it('a relative path in the file starts at the working directory, as on the command line, and errors say so', () => {
    const f = file(`${HEAD}Generic:\n  ClientConnection: {kubeconfig: cm.conf}\n`);
    writeFileSync(path.join(path.dirname(f), 'cm.conf'), 'not: [a kubeconfig');
    const cwd = tempDir();
    const missing = runPlat(['controller-manager', '--config', f, '--secure-port=0'], { cwd });
    assert.equal(missing.code, 1, missing.stderr);
    assert.match(missing.stderr, new RegExp(`^plat controller-manager: ${f}: Generic\\.ClientConnection\\.kubeconfig: cm\\.conf \\(${path.join(cwd, 'cm.conf')}\\): stat cm\\.conf: no such file or directory$`, 'm'), 'os.Stat names the path as given, as upstream\'s');
    writeFileSync(path.join(cwd, 'cm.conf'), 'just text');
    const read = runPlat(['controller-manager', '--config', f, '--secure-port=0'], { cwd });
    assert.equal(read.code, 1, read.stderr);
    assert.match(read.stderr, /Generic\.ClientConnection\.kubeconfig: cm\.conf \(\S+\): error loading config file "cm\.conf": couldn't get version\/kind; json parse error: json: cannot unmarshal string into Go value of type struct/, 'the one in the working directory was read');
  });

  // This test and the signing-files one boot the role in this process: boot refuses before
  // anything starts ('stops `plat controller-manager`...' above runs the real process).
  it('a value from the file that the role refuses later names the file and field too (exit 1); from the command line exit 2', async () => {
    const run = (text: string, ...args: string[]) =>
      bootRefusal('controller-manager', ['--config', file(`${HEAD}${text}`), '--master=https://127.0.0.1:1', '--secure-port=0', ...args], { cwd: tempDir() });
    const controllers = await run('Generic:\n  Controllers: ["*", "nope"]\n');
    assert.equal(controllers.code, 1, controllers.stderr);
    assert.match(controllers.stderr, /^plat controller-manager: \S+cm\.yaml: Generic\.Controllers: "nope" is not in the list of known controllers$/m);
    const lease = await run('Generic:\n  LeaderElection: {leaseDuration: 5s}\n');
    assert.equal(lease.code, 1, lease.stderr);
    assert.match(lease.stderr, /^plat controller-manager: \S+cm\.yaml: Generic\.LeaderElection\.leaseDuration: leaseDuration must be greater than renewDeadline/m);
    // A whole LeaderElection block: only the fields the problem is about are named.
    const block = await run('Generic:\n  LeaderElection: {leaderElect: true, leaseDuration: 5s, renewDeadline: 10s, retryPeriod: 2s, resourceLock: leases, resourceName: x, resourceNamespace: ns}\n');
    assert.equal(block.code, 1, block.stderr);
    assert.match(block.stderr, /^plat controller-manager: (\S+cm\.yaml): Generic\.LeaderElection\.leaseDuration, \1: Generic\.LeaderElection\.renewDeadline: leaseDuration must be greater than renewDeadline \(--leader-elect-lease-duration=5s, --leader-elect-renew-deadline=10s\)$/m);
    const flag = await run('Generic:\n  LeaderElection: {leaseDuration: 20s}\n', '--leader-elect-lease-duration=5s');
    assert.equal(flag.code, 2, 'the command line won: a usage problem');
    assert.match(flag.stderr, /^plat controller-manager: leaseDuration must be greater than renewDeadline \(--leader-elect-lease-duration=5s/m);
    // One value from each: both named, and a usage problem (the command line can fix it alone).
    const mixed = await run('Generic:\n  LeaderElection: {leaseDuration: 20s}\n', '--leader-elect-renew-deadline=25s');
    assert.equal(mixed.code, 2, mixed.stderr);
    assert.match(mixed.stderr, /^plat controller-manager: \S+cm\.yaml: Generic\.LeaderElection\.leaseDuration, --leader-elect-renew-deadline \(command line\): leaseDuration must be greater than renewDeadline \(--leader-elect-lease-duration=20s, --leader-elect-renew-deadline=25s\)$/m);
    // A problem from the file and another from the command line: exit 2 for the pair.
    const both = await run('Generic:\n  Controllers: ["*", "nope"]\n', '--leader-elect-retry-period=0s');
    assert.equal(both.code, 2, both.stderr);
    assert.match(both.stderr, /^plat controller-manager: \[\S+cm\.yaml: Generic\.Controllers: "nope" is not in the list of known controllers, --leader-elect-retry-period=0s: retryPeriod must be greater than zero\]\n/m);
  });

  it('a port out of range from the file is upstream\'s options error, naming file and field (exit 1)', () => {
    const f = file(`${HEAD}Generic:\n  Port: 70000\n`);
    const r = runPlat(['controller-manager', '--config', f, '--master=https://127.0.0.1:1'], { cwd: tempDir() });
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stderr, `plat controller-manager: ${f}: Generic.Port: --secure-port 70000 must be between 1 and 65535, inclusive. It cannot be turned off with 0\n`);
  });

  it('signing files from the file that do not fit together name the file and fields (exit 1); from the command line exit 2', async () => {
    const run = (text: string, ...args: string[]) =>
      bootRefusal('controller-manager', ['--config', file(`${HEAD}${text}`), '--master=https://127.0.0.1:1', '--secure-port=0', ...args], { cwd: tempDir() });
    const mixed = await run('CSRSigningController:\n  ClusterSigningCertFile: /pki/ca.crt\n  ClusterSigningKeyFile: /pki/ca.key\n  LegacyUnknownSignerConfiguration: {CertFile: /pki/lu.crt}\n');
    assert.equal(mixed.code, 1, mixed.stderr);
    // Both in one aggregated line, as upstream's CSRSigningControllerOptions.Validate returns them.
    assert.match(mixed.stderr, /^plat controller-manager: \[(\S+cm\.yaml): CSRSigningController\.LegacyUnknownSignerConfiguration\.CertFile: "cluster-signing-legacy-unknown": cannot specify cert without key, \1: CSRSigningController\.ClusterSigningCertFile, \1: CSRSigningController\.ClusterSigningKeyFile, \1: CSRSigningController\.LegacyUnknownSignerConfiguration\.CertFile: cannot specify --cluster-signing-\{cert,key\}-file and other --cluster-signing-\*-file flags at the same time\]$/m);
    const flag = await run('Generic:\n  Controllers: ["*"]\n', '--cluster-signing-key-file=/pki/ca.key');
    assert.equal(flag.code, 2, flag.stderr);
    assert.match(flag.stderr, /^plat controller-manager: "cluster-signing": cannot specify key without cert$/m);
  });
});
