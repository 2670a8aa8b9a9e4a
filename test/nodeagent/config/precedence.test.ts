// Where each value of the node agent's configuration comes from, as upstream's NewKubeletCommand
// orders it: option defaults without --config (anonymous auth, AlwaysAllow, read-only port 10255)
// or the file's defaults with it; then the file; then the --config-dir drop-ins in lexical order,
// merged as JSON merge patches; then the flags the operator gave. Plus upstream's defaulting rules
// (zero values of plain fields, absent pointer fields, nodeStatusReportFrequency following an
// explicit update frequency, the default evictionHard and mergeDefaultEvictionSettings).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultNodeAgentConfiguration } from '../../../core/nodeagent/defaults.js';
import { build, ok } from './support.js';

describe('option defaults against file defaults', () => {
  it('without --config the option defaults apply (anonymous on, no token webhook, AlwaysAllow, read-only port 10255)', () => {
    const c = ok();
    assert.equal(c.authentication.anonymous.enabled, true);
    assert.equal(c.authentication.webhook.enabled, false);
    assert.equal(c.authorization.mode, 'AlwaysAllow');
    assert.equal(c.readOnlyPort, 10255);
  });

  it('with --config the file defaults apply (anonymous off, token webhook on, Webhook, no read-only port)', () => {
    const c = ok({ file: {} });
    assert.equal(c.authentication.anonymous.enabled, false);
    assert.equal(c.authentication.webhook.enabled, true);
    assert.equal(c.authorization.mode, 'Webhook');
    assert.equal(c.readOnlyPort, 0);
    assert.deepEqual(c, { ...defaultNodeAgentConfiguration() });
  });

  it('a flag given with --config still overrides the file, and only the flags given do', () => {
    const c = ok({ file: { port: 11250, maxPods: 50 }, args: ['--port=12250', '--anonymous-auth'] });
    assert.equal(c.port, 12250);
    assert.equal(c.maxPods, 50);
    assert.equal(c.authentication.anonymous.enabled, true);
    assert.equal(c.readOnlyPort, 0, 'the option default of --read-only-port does not apply');
  });

  it('flags set in plat\'s config file count as given', () => {
    const c = ok({ file: { port: 11250 }, platConfigFlags: { port: 13250, 'sync-frequency': '30s' } });
    assert.equal(c.port, 13250);
    assert.equal(c.syncFrequency, '30s');
  });
});

describe('upstream defaulting rules', () => {
  it('plain fields default when zero, pointer fields only when absent', () => {
    const c = ok({ file: { port: 0, maxPods: 0, syncFrequency: '0s', healthzPort: 0, registryPullQPS: 0, eventRecordQPS: 0, resolvConf: '' } });
    assert.equal(c.port, 10250);
    assert.equal(c.maxPods, 110);
    assert.equal(c.syncFrequency, '1m0s');
    assert.equal(c.healthzPort, 0);
    assert.equal(c.registryPullQPS, 0);
    assert.equal(c.eventRecordQPS, 0);
    assert.equal(c.resolvConf, '');
  });

  it('nodeStatusReportFrequency follows an explicit nodeStatusUpdateFrequency, and is 5m otherwise', () => {
    assert.equal(ok({ file: { nodeStatusUpdateFrequency: '20s' } }).nodeStatusReportFrequency, '20s');
    assert.equal(ok({ file: {} }).nodeStatusReportFrequency, '5m0s');
    assert.equal(ok({ file: { nodeStatusUpdateFrequency: '20s', nodeStatusReportFrequency: '1m' } }).nodeStatusReportFrequency, '1m');
  });

  it('evictionPressureTransitionPeriod 0s becomes 5m; a negative podPidsLimit becomes -1', () => {
    const c = ok({ file: { evictionPressureTransitionPeriod: '0s', podPidsLimit: -7 } });
    assert.equal(c.evictionPressureTransitionPeriod, '5m0s');
    assert.equal(c.podPidsLimit, -1);
  });

  it('serializeImagePulls defaults to false when maxParallelImagePulls allows parallel pulls', () => {
    assert.equal(ok({ file: { maxParallelImagePulls: 3 } }).serializeImagePulls, false);
    assert.equal(ok({ file: { maxParallelImagePulls: 1 } }).serializeImagePulls, true);
  });

  it('evictionHard: defaults when absent, kept as given otherwise, merged with the defaults on request', () => {
    assert.deepEqual(ok({ file: {} }).evictionHard, defaultNodeAgentConfiguration().evictionHard);
    assert.deepEqual(ok({ file: { evictionHard: { 'memory.available': '1Gi' } } }).evictionHard, { 'memory.available': '1Gi' });
    const merged = ok({ file: { evictionHard: { 'memory.available': '1Gi' }, mergeDefaultEvictionSettings: true } }).evictionHard;
    assert.deepEqual(merged, { ...defaultNodeAgentConfiguration().evictionHard, 'memory.available': '1Gi' });
  });
});

describe('--config-dir drop-ins', () => {
  it('apply in lexical order, subdirectories where they sort, over the file; other extensions are skipped', () => {
    const c = ok({
      file: { maxPods: 10, port: 11250 },
      dropIns: {
        '20-pods.conf': { maxPods: 20 },
        '10-pods.conf': { maxPods: 15, podsPerCore: 2 },
        '15-sub/01.conf': { podsPerCore: 3 },
        '30-ignored.yaml': { maxPods: 99 },
      },
    });
    assert.equal(c.maxPods, 20);
    assert.equal(c.podsPerCore, 3);
    assert.equal(c.port, 11250);
  });

  it('merge maps key by key, replace lists, and let null restore the default', () => {
    const c = ok({
      file: { evictionHard: { 'memory.available': '1Gi', 'nodefs.available': '5%' }, enforceNodeAllocatable: ['pods'], syncFrequency: '30s', clusterDNS: ['10.0.0.1', '10.0.0.2'] },
      dropIns: { '10.conf': { evictionHard: { 'nodefs.available': '7%' }, clusterDNS: ['10.0.0.3'], syncFrequency: null } },
    });
    assert.deepEqual(c.evictionHard, { 'memory.available': '1Gi', 'nodefs.available': '7%' });
    assert.deepEqual(c.clusterDNS, ['10.0.0.3']);
    assert.equal(c.syncFrequency, '1m0s');
  });

  it('flags override the drop-ins; --feature-gates adds to the gates of the file and drop-ins', () => {
    const c = ok({
      file: { featureGates: { QOSReserved: true } },
      dropIns: { '10.conf': { port: 11250, featureGates: { NodeLogQuery: true } } },
      args: ['--port=12250', '--feature-gates=CPUCFSQuotaPeriod=true'],
    });
    assert.equal(c.port, 12250);
    assert.deepEqual(c.featureGates, { QOSReserved: true, NodeLogQuery: true, CPUCFSQuotaPeriod: true });
  });

  it('without --config, start from the option defaults', () => {
    const c = ok({ dropIns: { '10.conf': { maxPods: 30 } } });
    assert.equal(c.maxPods, 30);
    assert.equal(c.authorization.mode, 'AlwaysAllow');
  });

  it('a drop-in of another kind or with a bad value names its file', () => {
    const walk = (r: { configDir?: string }) => `failed to merge nodeagent configs: failed to walk through nodeagent dropin directory "${r.configDir}": failed to load nodeagent dropin file, path: ${r.configDir}/10.conf, `;
    const other = build({ file: {}, dropIns: { '10.conf': 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n' } });
    assert.equal(other.error, `${walk(other)}unknown apiVersion/kind: kubelet.config.k8s.io/v1beta1, Kind=KubeletConfiguration`);
    const bad = build({ file: {}, dropIns: { '10.conf': { maxPods: 'many' } } });
    assert.equal(bad.error, `${walk(bad)}error: failed to decode: json: cannot unmarshal string into Go struct field NodeAgentConfiguration.maxPods of type int32`);
  });

  it('an unknown field in a drop-in is reported and ignored; a missing directory is an error', () => {
    const r = build({ file: {}, dropIns: { '10.conf': { maxPods: 20, maxPodz: 30 } } });
    assert.equal(r.config?.maxPods, 20);
    assert.match(r.logs, /Ignoring fields of a drop-in that decoding does not accept .*10\.conf.*unknown field \\"maxPodz\\"/);
    const missing = build({ args: ['--config-dir=/nonexistent/conf.d'] });
    assert.equal(missing.error, 'failed to merge nodeagent configs: failed to walk through nodeagent dropin directory "/nonexistent/conf.d": lstat /nonexistent/conf.d: no such file or directory');
  });
});

describe('flag values bound to fields', () => {
  it('special flag syntaxes become the field values', () => {
    const c = ok({
      file: {},
      args: [
        '--manifest-url-header=Authorization:Bearer x,X-A:1', '--manifest-url-header=X-A:2',
        '--eviction-hard=memory.available<200Mi,nodefs.available<12%',
        '--register-with-taints=dedicated=infra:NoSchedule,gpu:NoExecute',
        '--reserved-memory=0:memory=1Gi,hugepages-2Mi=2Gi;1:memory=2Gi',
        '--vmodule=server=4,lease*=2', '-v=3',
        '--node-status-update-frequency=15s',
        '--system-reserved=cpu=100m,memory=1Gi',
      ],
    });
    assert.deepEqual(c.staticPodURLHeader, { Authorization: ['Bearer x'], 'X-A': ['1', '2'] });
    assert.deepEqual(c.evictionHard, { 'memory.available': '200Mi', 'nodefs.available': '12%' });
    assert.deepEqual(c.registerWithTaints, [{ key: 'dedicated', value: 'infra', effect: 'NoSchedule' }, { key: 'gpu', effect: 'NoExecute' }]);
    assert.deepEqual(c.reservedMemory, [{ numaNode: 0, limits: { memory: '1Gi', 'hugepages-2Mi': '2Gi' } }, { numaNode: 1, limits: { memory: '2Gi' } }]);
    assert.deepEqual(c.logging.vmodule, [{ filePattern: 'server', verbosity: 4 }, { filePattern: 'lease*', verbosity: 2 }]);
    assert.equal(c.logging.verbosity, 3);
    assert.equal(c.nodeStatusUpdateFrequency, '15s');
    assert.deepEqual(c.systemReserved, { cpu: '100m', memory: '1Gi' });
  });
});
