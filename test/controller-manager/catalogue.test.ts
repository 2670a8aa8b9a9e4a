// The controller manager's flag catalogue against spec 02, and the flags its plugins define
// against the catalogue: same type, default, section and help, so --help reads as the spec.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { declareFlags } from '../../core/boot.js';
import { Flags } from '../../core/flags/flag-set.js';
import { formatDefault } from '../../core/flags/help.js';
import { isOfType, zeroValue } from '../../core/flags/parse-value.js';
import { Host } from '../../core/host.js';
import { CONTROLLER_MANAGER_FLAG_SECTIONS, controllerManagerFlagCatalogue, embeddedControllerManagerFlagCatalogue } from '../../host/flag-catalogue/controller-manager.js';
import { profiles } from '../../host/profiles.js';
import { runPlat } from '../helpers/run-plat.js';

const byName = new Map(controllerManagerFlagCatalogue.map((s) => [s.name, s]));

describe('controller manager flag catalogue', () => {
  it('lists every option of spec 02 once, in the spec\'s sections', () => {
    assert.equal(byName.size, controllerManagerFlagCatalogue.length);
    for (const hostOwned of ['version', 'help', 'h']) assert.equal(byName.has(hostOwned), false);
    // Spec 02's tables, multi-name rows split: 27 + 5 + 29 + 14 + 20 + 18 + 29.
    assert.equal(controllerManagerFlagCatalogue.length, 142);
    assert.deepEqual([...new Set(controllerManagerFlagCatalogue.map((s) => s.section))], [...CONTROLLER_MANAGER_FLAG_SECTIONS]);
  });

  it('has defaults of their types that pass their own checks', () => {
    for (const s of controllerManagerFlagCatalogue) {
      assert.ok(s.help.length > 0, s.name);
      if (s.default === undefined) continue;
      assert.ok(isOfType(s.type, s.default), s.name);
      assert.equal(s.validate?.(s.default), undefined, s.name);
      formatDefault(s);
    }
  });

  it('spot checks against the spec', () => {
    const expect: [string, string, unknown][] = [
      ['secure-port', 'int', 10257], ['bind-address', 'string', '0.0.0.0'], ['authentication-token-webhook-cache-ttl', 'duration', 10_000],
      ['authorization-always-allow-paths', 'strings', ['/healthz', '/readyz', '/livez']], ['authorization-webhook-cache-authorized-ttl', 'duration', 10_000],
      ['authorization-webhook-cache-unauthorized-ttl', 'duration', 10_000], ['requestheader-username-headers', 'strings', ['x-remote-user']],
      ['plat-api-qps', 'float32', 20], ['plat-api-burst', 'int', 30], ['plat-api-content-type', 'string', 'application/vnd.platform.protobuf'],
      ['leader-elect', 'bool', true], ['leader-elect-lease-duration', 'duration', 15_000], ['leader-elect-renew-deadline', 'duration', 10_000],
      ['leader-elect-retry-period', 'duration', 2_000], ['leader-elect-resource-lock', 'string', 'leases'],
      ['leader-elect-resource-name', 'string', 'plat-controller-manager'], ['leader-elect-resource-namespace', 'string', 'plat-system'],
      ['controllers', 'strings', ['*']], ['controller-shutdown-timeout', 'duration', 10_000], ['min-resync-period', 'duration', 43_200_000],
      ['profiling', 'bool', true], ['cluster-signing-duration', 'duration', 8760 * 3_600_000], ['concurrent-gc-syncs', 'int', 20],
      ['concurrent-daemonset-syncs', 'int', 2], ['node-eviction-rate', 'float32', 0.1], ['terminated-pod-gc-threshold', 'int', 12500],
      ['cluster-name', 'string', 'platform'], ['flex-volume-plugin-dir', 'string', '/usr/libexec/platform/nodeagent-plugins/volume/exec/'],
    ];
    for (const [name, type, def] of expect) {
      assert.equal(byName.get(name)?.type, type, name);
      assert.deepEqual(byName.get(name)?.default, def, name);
    }
  });

  it('agrees with the flags the controller-manager plugins define', () => {
    const profile = profiles['controller-manager']!;
    const host = new Host({ role: profile.role });
    for (const p of profile.plugins) p.apply(host, undefined);
    const flags = new Flags();
    declareFlags(host, profile, flags);
    const defined = flags.specs().filter((s) => s.unsupported === undefined && s.owner !== 'host');
    assert.ok(defined.length >= 30, 'the plugins define the implemented flags');
    for (const s of defined) {
      const c = byName.get(s.name);
      if (s.name === 'config') continue; // plat's own: spec 02 has no --config
      assert.ok(c, `--${s.name} is in the catalogue`);
      assert.equal(s.type, c.type, `${s.name} type`);
      assert.equal(s.typeName, c.typeName, `${s.name} type name`);
      assert.deepEqual(s.default ?? zeroValue(s.type), c.default ?? zeroValue(c.type), `${s.name} default`);
      assert.equal(s.section, c.section, `${s.name} section`);
      if (s.name !== 'controllers') assert.equal(s.help, c.help, `${s.name} help`);
    }
  });

  it('leaves the endpoint and the API connection out of plat all', () => {
    const names = new Set(embeddedControllerManagerFlagCatalogue.map((s) => s.name));
    for (const n of ['secure-port', 'authorization-kubeconfig', 'platconfig', 'master']) assert.equal(names.has(n), false, n);
    for (const n of ['controllers', 'leader-elect', 'cluster-signing-cert-file']) assert.ok(names.has(n), n);
  });

  it('--help shows the spec\'s sections and marks what plat does not implement', () => {
    const r = runPlat(['controller-manager', '--help']);
    assert.equal(r.code, 0, r.stderr);
    for (const section of CONTROLLER_MANAGER_FLAG_SECTIONS) assert.ok(r.stdout.includes(`\n${section}:\n`), section);
    assert.match(r.stdout, /--secure-port int\s+HTTPS port; 0 disables HTTPS\.\s+\(default 10257\)/);
    assert.match(r.stdout, /--concurrent-gc-syncs int32 [\s\S]*?\(not supported yet: not implemented by plat yet\)/);
    // The spec's int32 options, named as upstream's Int32Var flags print.
    assert.match(r.stdout, /--plat-api-burst int32\s+Burst\. \(default 30\)/);
    assert.match(r.stdout, /--terminated-pod-gc-threshold int32 /);
    // Upstream's Float32Var flags print float32; its Float64Var ones `float`, as pflag shortens float64.
    for (const f of ['plat-api-qps', 'node-eviction-rate', 'secondary-node-eviction-rate', 'unhealthy-zone-threshold']) assert.match(r.stdout, new RegExp(`--${f} float32 `), f);
    assert.match(r.stdout, /--horizontal-pod-autoscaler-tolerance float /);
    // --controllers names the controllers, upstream's tokencleaner among the disabled-by-default ones, as its help does.
    assert.match(r.stdout, /\n\s+All controllers:\n\s+certificatesigningrequest-approving-controller, .*, token-cleaner-controller\n\s+Disabled-by-default controllers: token-cleaner-controller \(default \[\*\]\)\n/);
    // --config names every part it reads (KubeCloudShared.UseServiceAccountCredentials included).
    // (Wrapped however wide the section's longest flag, --feature-gates colonSeparatedMultimapStringString, makes it.)
    assert.match(r.stdout, /--config string\s+A\s+PlatControllerManagerConfiguration\s+file\s+\(YAML or JSON\); its Generic,\s+KubeCloudShared\s+and\s+CSRSigningController parts/);
    // --feature-gates lists the gates, one a line, as upstream's help does.
    assert.match(r.stdout, /--feature-gates colonSeparatedMultimapStringString[\s\S]*?\n\s+kube:AllAlpha=true\|false \(ALPHA - default=false\)\n\s+kube:AllBeta=true\|false \(BETA - default=false\)\n/);
    assert.match(r.stdout, /\n\s+kube:RotateKubeletServerCertificate=true\|false \(BETA - default=true\)\n/);
  });

  it('--plat-api-qps is a float32: 1e39 is out of its range, as strconv.ParseFloat(s, 32) says', () => {
    const r = runPlat(['controller-manager', '--plat-api-qps=1e39']);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stderr, 'plat controller-manager: invalid argument "1e39" for "--plat-api-qps" flag: strconv.ParseFloat: parsing "1e39": value out of range\n');
  });
});
