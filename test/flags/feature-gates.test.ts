// --feature-gates of `plat apiserver` and `plat controller-manager` as 1.32's
// ComponentGlobalsRegistry and featuregate parse and check it: `component:key=value` pairs (no
// component is "kube"), strconv.ParseBool values, unknown and locked gates, GA / deprecated
// warnings, and plat's refusal of gate states it does not implement.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { evaluateComponentGates } from '../../core/feature-gates/component-flag.js';
import { CONTROL_PLANE_GATES } from '../../core/feature-gates/control-plane.js';
import { bootRefusal } from '../helpers/boot-refusal.js';
import { tempDir } from '../helpers/plat.js';

describe('--feature-gates (control plane)', () => {
  it('evaluates component:key=value pairs as the registry and featuregate Set', () => {
    const ok = (pairs: Record<string, string>) => {
      const r = evaluateComponentGates(pairs, CONTROL_PLANE_GATES);
      assert.ok(!('error' in r), JSON.stringify(r));
      return r;
    };
    assert.equal(ok({}).gates.enabled('APIResponseCompression'), true);
    assert.equal(ok({ APIResponseCompression: 'false' }).gates.enabled('APIResponseCompression'), false);
    assert.equal(ok({ 'kube:APIResponseCompression': 'F' }).gates.enabled('APIResponseCompression'), false);
    assert.equal(ok({ ' kube : RotateKubeletServerCertificate ': ' 1 ' }).gates.enabled('RotateKubeletServerCertificate'), true);
    assert.equal(ok({ AllAlpha: 'true', ContextualLogging: 'false' }).gates.enabled('LoggingAlphaOptions'), true);
    // 1.32's stages (a later pkg/features snapshot keeps their history): SystemdWatchdog is a 1.32
    // beta, on; TopologyManagerPolicyOptions went GA unlocked, so it may still be turned off.
    assert.equal(ok({}).gates.enabled('SystemdWatchdog'), true);
    assert.deepEqual(ok({ TopologyManagerPolicyOptions: 'false' }).warnings, ['Setting GA feature gate TopologyManagerPolicyOptions=false. It will be removed in a future release.']);
    assert.deepEqual(ok({ KMSv1: 'false', ServiceAccountTokenJTI: 'true' }).warnings, [
      'Setting deprecated feature gate KMSv1=false. It will be removed in a future release.',
      'Setting GA feature gate ServiceAccountTokenJTI=true. It will be removed in a future release.',
    ]);
  });

  const errors: Array<[string, Record<string, string>, string]> = [
    ['an unknown gate (the first by name)', { Zzz: 'true', Aaa: 'true' }, 'unrecognized feature gate: Aaa'],
    ['a gate 1.32 does not have yet', { ListFromCacheSnapshot: 'true' }, 'unrecognized feature gate: ListFromCacheSnapshot'],
    ['a locked gate', { RemainingItemCount: 'false' }, 'cannot set feature gate RemainingItemCount to false, feature is locked to true'],
    ['two locked gates', { StructuredAuthorizationConfiguration: 'false', RetryGenerateName: 'false' },
      '[cannot set feature gate RetryGenerateName to false, feature is locked to true, cannot set feature gate StructuredAuthorizationConfiguration to false, feature is locked to true]'],
    ['PodIndexLabel, GA and locked in 1.32', { PodIndexLabel: 'false' }, 'cannot set feature gate PodIndexLabel to false, feature is locked to true'],
    ['CronJobsScheduledAnnotation, GA and locked in 1.32', { CronJobsScheduledAnnotation: 'false' },
      'cannot set feature gate CronJobsScheduledAnnotation to false, feature is locked to true'],
    ['a value ParseBool refuses', { APIResponseCompression: 'yes' }, 'invalid value of APIResponseCompression=yes, err: strconv.ParseBool: parsing "yes": invalid syntax'],
    ['an unknown component', { 'wardle:Foo': 'true' }, 'component not registered: wardle'],
    // As the flag parser hands it over: an own key (a literal would set the prototype instead).
    ['a gate named __proto__', JSON.parse('{"__proto__":"true"}') as Record<string, string>, 'unrecognized feature gate: __proto__'],
    ['a gate named kube:__proto__', JSON.parse('{"kube:__proto__":"false"}') as Record<string, string>, 'unrecognized feature gate: __proto__'],
    ['kube: and no prefix mixed', { 'kube:APIResponseCompression': 'true', WatchList: 'true' },
      'set kube feature gates with default empty prefix or kube: prefix consistently, do not mix use'],
  ];
  for (const [what, pairs, error] of errors) {
    it(`refuses ${what}`, () => {
      assert.deepEqual(evaluateComponentGates(pairs, CONTROL_PLANE_GATES), { error });
    });
  }

  // Through the command line and the config file, as `plat ROLE` refuses at start-up.
  const refusals: Array<[string, string, string[], number, RegExp]> = [
    ['apiserver', 'an unknown gate', ['--feature-gates=NoSuchGate=true'], 1, /^plat apiserver: --feature-gates: unrecognized feature gate: NoSuchGate$/m],
    ['apiserver', 'repeated flags merge (the later wins, then checked whole)', ['--feature-gates=RemainingItemCount=true', '--feature-gates=RemainingItemCount=false'], 1,
      /^plat apiserver: --feature-gates: cannot set feature gate RemainingItemCount to false, feature is locked to true$/m],
    ['apiserver', 'a pair without a value', ['--feature-gates=APIResponseCompression'], 2, /--feature-gates.*APIResponseCompression must be formatted as key=value/],
    ['apiserver', 'an alpha API plat lacks', ['--feature-gates=kube:CoordinatedLeaderElection=true'], 2,
      /^plat apiserver: --feature-gates: CoordinatedLeaderElection=true is not supported: plat has no coordinated leader election/m],
    ['apiserver', 'AllAlpha, which turns on what plat lacks', ['--feature-gates=AllAlpha=true'], 2, /--feature-gates: ClusterTrustBundle=true is not supported: plat serves no ClusterTrustBundle API/],
    ['apiserver', 'the alpha logging options plat lacks', ['--feature-gates=LoggingAlphaOptions=true'], 2,
      /--feature-gates: LoggingAlphaOptions=true is not supported: plat implements neither alpha logging option/],
    ['apiserver', 'the /flagz endpoint plat does not serve', ['--feature-gates=ComponentFlagz=true'], 2,
      /^plat apiserver: --feature-gates: ComponentFlagz=true is not supported: plat serves no \/flagz endpoint$/m],
    ['controller-manager', 'the /statusz endpoint plat does not serve', ['--feature-gates=ComponentStatusz=true'], 2,
      /^plat controller-manager: --feature-gates: ComponentStatusz=true is not supported: plat serves no \/statusz endpoint$/m],
    ['controller-manager', 'CBOR clients plat does not have', ['--feature-gates=ClientsAllowCBOR=true,ClientsPreferCBOR=true'], 2,
      /^plat controller-manager: --feature-gates: ClientsPreferCBOR=true is not supported: plat's clients .* JSON only$/m],
    ['apiserver', 'turning off what plat cannot leave out', ['--feature-gates=WatchList=false'], 2, /--feature-gates: WatchList=false is not supported: plat always serves watches with sendInitialEvents/],
    ['controller-manager', 'an unknown component', ['--feature-gates=wardle:A=true'], 1, /^plat controller-manager: --feature-gates: component not registered: wardle$/m],
    ['controller-manager', 'a bad value', ['--feature-gates=RotateKubeletServerCertificate=maybe'], 1,
      /^plat controller-manager: --feature-gates: invalid value of RotateKubeletServerCertificate=maybe, err: strconv\.ParseBool: parsing "maybe": invalid syntax$/m],
  ];
  for (const [role, what, args, code, message] of refusals) {
    it(`plat ${role} refuses ${what}`, async () => {
      const extra = role === 'apiserver' ? ['--data-dir', tempDir(), '--secure-port=0'] : ['--master=https://127.0.0.1:1', '--secure-port=0'];
      const r = await bootRefusal(role, [...extra, ...args], { cwd: tempDir() });
      assert.equal(r.code, code, r.stderr);
      assert.match(r.stderr, message);
    });
  }

  it('takes the gates from the config file as a map, named by their field when refused', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'plat.config.json');
    writeFileSync(file, JSON.stringify({ flags: { 'feature-gates': { StorageVersionAPI: true } } }));
    const r = await bootRefusal('apiserver', ['--data-dir', dir, '--secure-port=0'], { cwd: dir, configFile: file });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /--feature-gates: StorageVersionAPI=true is not supported: plat serves no StorageVersion API/);
    writeFileSync(file, JSON.stringify({ flags: { 'feature-gates': { NoSuchGate: false } } }));
    const unknown = await bootRefusal('apiserver', ['--data-dir', dir, '--secure-port=0'], { cwd: dir, configFile: file });
    assert.equal(unknown.code, 1, unknown.stderr);
    assert.match(unknown.stderr, /plat\.config\.json.*feature-gates.*: unrecognized feature gate: NoSuchGate$/m);
  });

  it('StructuredAuthenticationConfiguration=false refuses --authentication-config with upstream\'s text', async () => {
    const dir = tempDir();
    const config = path.join(dir, 'authn.yaml');
    writeFileSync(config, 'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthenticationConfiguration\n');
    const r = await bootRefusal('apiserver', ['--data-dir', dir, '--secure-port=0', '--authentication-config', config, '--feature-gates=StructuredAuthenticationConfiguration=false'], { cwd: dir });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /^plat apiserver: set --feature-gates=StructuredAuthenticationConfiguration=true to use authentication-config file$/m);
  });
});
