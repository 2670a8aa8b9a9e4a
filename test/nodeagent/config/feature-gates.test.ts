// The node agent's feature gates evaluated as component-base's featuregate does.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FEATURE_GATE_DEPENDENCIES, FEATURE_GATES } from '../../../core/nodeagent/feature-gate-specs.js';
import { FeatureGates } from '../../../core/nodeagent/feature-gates.js';

describe('feature gates', () => {
  it('have their 1.35 defaults unless set', () => {
    const g = FeatureGates.defaults();
    assert.equal(g.enabled('RotateKubeletServerCertificate'), true);
    assert.equal(g.enabled('KubeletCrashLoopBackOffMax'), true);
    assert.equal(g.enabled('NodeLogQuery'), false);
    assert.equal(g.enabled('NoSuchGate'), false);
    assert.equal(FeatureGates.evaluate({ NodeLogQuery: true }).gates.enabled('NodeLogQuery'), true);
  });

  it('AllAlpha and AllBeta switch the gates of their stage that are not named', () => {
    const { gates, errors } = FeatureGates.evaluate({ AllAlpha: true, QOSReserved: false, DRADeviceTaintRules: false });
    assert.deepEqual(errors, []);
    assert.equal(gates.enabled('MemoryQoS'), true);
    assert.equal(gates.enabled('QOSReserved'), false);
    const beta = FeatureGates.evaluate({ AllBeta: false, GracefulNodeShutdown: true, WindowsGracefulNodeShutdown: false, GracefulNodeShutdownBasedOnPodPriority: false });
    assert.deepEqual(beta.errors, []);
    assert.equal(beta.gates.enabled('RotateKubeletServerCertificate'), false);
    assert.equal(beta.gates.enabled('GracefulNodeShutdown'), true);
  });

  it('stop at the first unknown name, refuse locked gates, and check dependencies', () => {
    assert.deepEqual(FeatureGates.evaluate({ Zzz: true, Aaa: true }).errors, ['unrecognized feature gate: Aaa']);
    assert.deepEqual(FeatureGates.evaluate({ NodeSwap: false, MemoryManager: false }).errors, [
      'cannot set feature gate MemoryManager to false, feature is locked to true',
      'cannot set feature gate NodeSwap to false, feature is locked to true',
    ]);
    assert.deepEqual(FeatureGates.evaluate({ UserNamespacesSupport: false }).errors, ['ProcMountType is enabled, but depends on features that are disabled: [UserNamespacesSupport]']);
  });

  it('warn when a GA or deprecated gate is set', () => {
    assert.deepEqual(FeatureGates.evaluate({ KMSv1: false, NodeSwap: true }).warnings, [
      'Setting deprecated feature gate KMSv1=false. It will be removed in a future release.',
      'Setting GA feature gate NodeSwap=true. It will be removed in a future release.',
    ]);
  });

  it('are consistent: every dependency is known, and the defaults satisfy the dependencies', () => {
    for (const [gate, deps] of Object.entries(FEATURE_GATE_DEPENDENCIES)) {
      assert.ok(FEATURE_GATES[gate], gate);
      for (const d of deps) assert.ok(FEATURE_GATES[d], `${gate} -> ${d}`);
    }
    assert.deepEqual(FeatureGates.evaluate({}).errors, []);
  });
});
