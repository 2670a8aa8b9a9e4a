// ValidateNode and ValidateNodeUpdate over HTTPS: each rule with a bad value, the 422's field
// paths and messages as upstream prints them (taint paths rooted at metadata, as upstream's are).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { nodeStrategy } from '../../plugins/nodes/strategy.js';
import { assertInvalid, nodeObject, nodePath, NODES, WITHOUT_NODE_LIFECYCLE } from './support.js';

const SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const NAME_PART = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const EFFECTS = 'supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"';
const CIDR = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';

interface CreateCase { name: string; node: any; causes: Array<[string, string]> }

function withStatus(name: string, field: 'capacity' | 'allocatable', list: Record<string, string>): any {
  const n = nodeObject(name);
  n.status[field] = list;
  return n;
}

const createCases: CreateCase[] = [
  { name: 'Node_1', node: nodeObject('Node_1'), causes: [['metadata.name', `Invalid value: "Node_1": ${SUBDOMAIN}`]] },
  { name: 'taint-key', node: nodeObject('taint-key', { spec: { taints: [{ key: 'a b', effect: 'NoSchedule' }] } }), causes: [['metadata.taints[0].key', `Invalid value: "a b": ${NAME_PART}`]] },
  { name: 'taint-value', node: nodeObject('taint-value', { spec: { taints: [{ key: 'a', value: '-x', effect: 'NoSchedule' }] } }), causes: [['metadata.taints[0].value', `Invalid value: "-x": ${LABEL_VALUE}`]] },
  { name: 'taint-no-effect', node: nodeObject('taint-no-effect', { spec: { taints: [{ key: 'a' }] } }), causes: [['metadata.taints[0].effect', 'Required value']] },
  { name: 'taint-effect', node: nodeObject('taint-effect', { spec: { taints: [{ key: 'a', effect: 'Sometimes' }] } }), causes: [['metadata.taints[0].effect', `Unsupported value: "Sometimes": ${EFFECTS}`]] },
  {
    name: 'taint-dup',
    node: nodeObject('taint-dup', { spec: { taints: [{ key: 'a', value: '1', effect: 'NoSchedule' }, { key: 'a', effect: 'NoExecute' }, { key: 'a', value: '2', effect: 'NoSchedule' }] } }),
    causes: [['metadata.taints[2]', 'Duplicate value: {"Key":"a","Value":"2","Effect":"NoSchedule","TimeAdded":null}: taints must be unique by key and effect pair']],
  },
  { name: 'cidr-bad', node: nodeObject('cidr-bad', { spec: { podCIDRs: ['10.0.0.0/33'] } }), causes: [['spec.podCIDRs[0]', `Invalid value: "10.0.0.0/33": ${CIDR}`]] },
  { name: 'cidr-legacy', node: nodeObject('cidr-legacy', { spec: { podCIDR: 'fd00::1' } }), causes: [['spec.podCIDRs[0]', `Invalid value: "fd00::1": ${CIDR}`]] },
  {
    name: 'cidr-two-v4', node: nodeObject('cidr-two-v4', { spec: { podCIDRs: ['10.0.0.0/24', '10.1.0.0/24'] } }),
    causes: [['spec.podCIDRs', 'Invalid value: ["10.0.0.0/24","10.1.0.0/24"]: may specify no more than one CIDR for each IP family']],
  },
  {
    name: 'cidr-three', node: nodeObject('cidr-three', { spec: { podCIDRs: ['10.0.0.0/24', 'fd00::/64', 'fd01::/64'] } }),
    causes: [['spec.podCIDRs', 'Invalid value: ["10.0.0.0/24","fd00::/64","fd01::/64"]: may specify no more than one CIDR for each IP family']],
  },
  { name: 'negative', node: withStatus('negative', 'capacity', { cpu: '-1' }), causes: [['status.capacity.cpu', 'Invalid value: "-1": must be greater than or equal to 0']] },
  { name: 'pods-fraction', node: withStatus('pods-fraction', 'capacity', { pods: '1500m' }), causes: [['status.capacity.pods', 'Invalid value: 1500m: must be an integer']] },
  {
    name: 'extended-fraction', node: withStatus('extended-fraction', 'allocatable', { 'example.com/gpu': '0.5', 'platform/native': '0.5', cpu: '0.5' }),
    causes: [['status.allocatable.example.com/gpu', 'Invalid value: 500m: must be an integer']],
  },
  {
    name: 'taints-annotation',
    node: (() => { const n = nodeObject('taints-annotation'); n.metadata.annotations = { 'scheduler.alpha.platform/taints': '[{"key":"k","effect":"Never"}]' }; return n; })(),
    causes: [['metadata.annotations.scheduler.alpha.platform/taints[0].effect', `Unsupported value: "Never": ${EFFECTS}`]],
  },
  {
    name: 'avoid-pods',
    node: (() => { const n = nodeObject('avoid-pods'); n.metadata.annotations = { 'scheduler.alpha.platform/preferAvoidPods': '{"preferAvoidPods":[{"podSignature":{"podController":{"controller":false}}},{}]}' }; return n; })(),
    causes: [
      ['metadata.annotations.scheduler.alpha.platform/preferAvoidPods[0].PodSignature.PodController.Controller', 'Invalid value: false: must point to a controller'],
      ['metadata.annotations.scheduler.alpha.platform/preferAvoidPods[1].PodSignature', 'Required value'],
    ],
  },
];

describe('Node validation', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess({ args: [WITHOUT_NODE_LIFECYCLE] }); });
  after(async () => { await plat?.stop(); });

  for (const c of createCases) {
    it(`create: ${c.name}`, async () => assertInvalid(await plat.admin.post(NODES, c.node), c.name, c.causes));
  }

  it('create: the valid counterparts pass (same key with another effect, a dual-stack pair, integer extended resources)', async () => {
    const n = nodeObject('valid-1', { spec: { taints: [{ key: 'a', effect: 'NoSchedule' }, { key: 'a', effect: 'NoExecute' }], podCIDRs: ['010.0.0.0/24', 'fd00::/64'] } });
    n.status.capacity['example.com/gpu'] = '2';
    const r = await plat.admin.post(NODES, n);
    assert.equal(r.status, 201, r.text);
  });

  async function stored(name: string, over: Parameters<typeof nodeObject>[1] = {}): Promise<any> {
    const r = await plat.admin.post(NODES, nodeObject(name, over));
    assert.equal(r.status, 201, r.text);
    return r.json;
  }

  it('update: providerID and podCIDRs may only go from empty to a value', async () => {
    const n = await stored('once-1');
    n.spec.providerID = 'cloud://1';
    n.spec.podCIDRs = ['10.9.0.0/24'];
    const set = await plat.admin.put(nodePath('once-1'), n);
    assert.equal(set.status, 200, set.text);
    const changed = structuredClone(set.json);
    changed.spec.providerID = 'cloud://2';
    changed.spec.podCIDRs = ['10.9.1.0/24'];
    changed.spec.podCIDR = '10.9.1.0/24';
    assertInvalid(await plat.admin.put(nodePath('once-1'), changed), 'once-1', [
      ['spec.podCIDRs', 'Forbidden: node updates may not change podCIDR except from "" to valid'],
      ['spec.providerID', 'Forbidden: node updates may not change providerID except from "" to valid'],
    ]);
  });

  it('update: externalID may not change', async () => {
    const n = await stored('ext-1', { spec: { externalID: 'a' } });
    n.spec.externalID = 'b';
    assertInvalid(await plat.admin.put(nodePath('ext-1'), n), 'ext-1', [['spec.externalID', 'Forbidden: may not be updated']]);
  });

  it('update: status addresses may not repeat (through nodes/status)', async () => {
    const n = await stored('addr-1');
    n.status.addresses.push({ type: 'InternalIP', address: '192.0.2.10' });
    assertInvalid(await plat.admin.put(nodePath('addr-1', 'status'), n), 'addr-1',
      [['status.addresses[2]', 'Duplicate value: {"Type":"InternalIP","Address":"192.0.2.10"}']]);
  });

  // A create drops configSource (dropDisabledFields), so a stored one predates the feature's
  // removal; the strategy is given one directly.
  it('update: an existing configSource must stay a valid ConfigMap reference, and is warned about', () => {
    const sctx = { user: { name: 'admin', groups: [] }, subresource: '', now: new Date() };
    const old = { ...nodeObject('cfgsrc-1', { spec: { configSource: { configMap: { namespace: 'ns', name: 'c', kubeletConfigKey: 'k' } } } }), metadata: { name: 'cfgsrc-1', resourceVersion: '1' } };
    const update = (configSource: unknown) => {
      const n = structuredClone(old);
      n.spec.configSource = configSource;
      nodeStrategy.prepareForUpdate!(sctx, n, old);
      return { errs: nodeStrategy.validateUpdate(sctx, n, old).map((e) => [e.field, e.message]), warnings: nodeStrategy.warnings!(sctx, n, old) };
    };
    assert.deepEqual(update({ configMap: { namespace: 'ns', uid: 'u', kubeletConfigKey: 'k' } }).errs, [
      ['spec.configSource.configMap.uid', 'Forbidden: uid must not be set in spec'],
      ['spec.configSource.configMap.name', 'Required value: name must be set'],
    ]);
    assert.deepEqual(update({}).errs, [['spec.configSource', 'Invalid value: {"ConfigMap":null}: exactly one reference subfield must be non-nil']]);
    assert.deepEqual(update(old.spec.configSource), { errs: [], warnings: ['spec.configSource: the feature is removed'] });
  });

  it('update: taints are checked by both ValidateNode and ValidateNodeUpdate, reported once in the message', async () => {
    const n = await stored('upd-taint');
    n.spec.taints = [{ key: 'k', effect: 'Maybe' }];
    assertInvalid(await plat.admin.put(nodePath('upd-taint'), n), 'upd-taint', [
      ['metadata.taints[0].effect', `Unsupported value: "Maybe": ${EFFECTS}`],
      ['metadata.taints[0].effect', `Unsupported value: "Maybe": ${EFFECTS}`],
    ]);
  });

  it('update of the status: capacity rules apply, the spec is not looked at', async () => {
    const n = await stored('st-cap');
    n.status.capacity.cpu = '-2';
    n.spec.taints = [{ key: 'k', effect: 'Maybe' }];
    assertInvalid(await plat.admin.put(nodePath('st-cap', 'status'), n), 'st-cap',
      [['status.capacity.cpu', 'Invalid value: "-2": must be greater than or equal to 0']]);
  });
});
