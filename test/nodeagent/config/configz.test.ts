// What /configz reports: upstream's `{"kubeletconfig": {...}}` renamed to `nodeagentconfig`, the
// versioned object with kind and apiVersion stamped first, fields in the v1beta1 struct's order,
// zero `omitempty` values left out, pointer fields always present, map keys sorted.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { configz, CONFIGZ_NAME } from '../../../core/nodeagent/configz.js';
import { defaultNodeAgentConfiguration } from '../../../core/nodeagent/defaults.js';
import { ok } from './support.js';

describe('configz', () => {
  it('wraps the versioned configuration under "nodeagentconfig", kind and apiVersion first', () => {
    const body = configz(defaultNodeAgentConfiguration());
    assert.deepEqual(Object.keys(body), [CONFIGZ_NAME]);
    assert.equal(CONFIGZ_NAME, 'nodeagentconfig');
    const keys = Object.keys(body.nodeagentconfig);
    assert.deepEqual(keys.slice(0, 4), ['kind', 'apiVersion', 'enableServer', 'podLogsDir']);
    assert.equal(body.nodeagentconfig['kind'], 'NodeAgentConfiguration');
    assert.equal(body.nodeagentconfig['apiVersion'], 'nodeagent.config.platform/v1beta1');
  });

  it('leaves out zero omitempty fields and keeps set pointer fields, even at zero', () => {
    const z = configz(ok({ file: { healthzPort: 0, registryPullQPS: 0 } })).nodeagentconfig;
    for (const absent of ['staticPodPath', 'staticPodURL', 'readOnlyPort', 'tlsCertFile', 'rotateCertificates', 'serverTLSBootstrap', 'clusterDomain', 'runOnce', 'podsPerCore', 'providerID']) {
      assert.equal(absent in z, false, absent);
    }
    assert.equal(z['healthzPort'], 0);
    assert.equal(z['registryPullQPS'], 0);
    assert.equal(z['enableSystemLogQuery'], false);
    assert.equal(z['imageMaximumGCAge'], '0s', 'durations are structs: always rendered');
    assert.deepEqual(z['memorySwap'], {});
    assert.deepEqual(z['logging'], { format: 'text', flushFrequency: '5s', verbosity: 0, options: { text: { infoBufferSize: '0' }, json: { infoBufferSize: '0' } } });
    assert.equal(z['containerRuntimeEndpoint'], 'unix:///run/containerd/containerd.sock');
  });

  it('sorts map keys and renders set values', () => {
    const z = configz(ok({ file: { readOnlyPort: 10255, featureGates: { QOSReserved: true, CPUCFSQuotaPeriod: true } } })).nodeagentconfig;
    assert.equal(z['readOnlyPort'], 10255);
    assert.deepEqual(Object.keys(z['evictionHard'] as object), ['imagefs.available', 'imagefs.inodesFree', 'memory.available', 'nodefs.available', 'nodefs.inodesFree']);
    assert.deepEqual(Object.keys(z['featureGates'] as object), ['CPUCFSQuotaPeriod', 'QOSReserved']);
    assert.equal(JSON.stringify(z).indexOf('"featureGates"') > JSON.stringify(z).indexOf('"evictionHard"'), true, 'struct order, not alphabetical');
  });
});
