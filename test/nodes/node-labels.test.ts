// Which labels a node may set on itself (NodeRestriction's getForbiddenLabels, the agent's
// --node-labels check): upstream's spellings of the reserved namespace are reserved too, with the
// same exceptions, so a node cannot give itself a role kubectl reads from node-role.kubernetes.io.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isLabelForbiddenToNodes, isNodeAgentLabel, isPlatformLabel } from '../../core/nodes/node-labels.js';

const table: Array<[key: string, reserved: boolean, forbidden: boolean]> = [
  ['platform/hostname', true, false],
  ['kubernetes.io/hostname', true, false],
  ['k8s.io/hostname', true, false],
  ['topology.kubernetes.io/zone', true, false],
  ['node.kubernetes.io/instance-type', true, false],
  ['nodeagent.kubernetes.io/anything', true, false],
  ['node-role.platform/worker', true, true],
  ['node-role.kubernetes.io/control-plane', true, true],
  ['kubernetes.io/role', true, true],
  ['platform/role', true, true],
  ['x.k8s.io/y', true, true],
  ['node-restriction.kubernetes.io/pci', true, true],
  ['a.node-restriction.k8s.io/pci', true, true],
  ['node-restriction.platform/tier', true, true],
  // Only whole domain labels are upstream's: these are anyone's.
  ['notkubernetes.io/x', false, false],
  ['example.com/tier', false, false],
  ['tier', false, false],
  ['kubernetes.io.example.com/x', false, false],
];

describe('labels a node may set on itself', () => {
  for (const [key, reserved, forbidden] of table) {
    it(`${key}: ${reserved ? 'reserved' : 'not reserved'}, ${forbidden ? 'forbidden' : 'allowed'} to nodes`, () => {
      assert.equal(isPlatformLabel(key), reserved);
      assert.equal(isLabelForbiddenToNodes(key), forbidden);
      if (reserved) assert.equal(isNodeAgentLabel(key), !forbidden);
    });
  }
});
