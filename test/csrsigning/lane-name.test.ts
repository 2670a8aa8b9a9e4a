// Each signer's lane logs under a name of upstream's form (csrsigning-kubelet-serving for
// kubernetes.io/kubelet-serving): a single component, so --vmodule patterns can select lanes.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { vmoduleLevel, parseVModule } from '../../core/log-vmodule.js';
import { laneName } from '../../plugins/csrsigning/signing-controller.js';

const names: [signer: string, lane: string][] = [
  ['platform/nodeagent-serving', 'csrsigning-nodeagent-serving'],
  ['platform/apiserver-client-nodeagent', 'csrsigning-apiserver-client-nodeagent'],
  ['platform/apiserver-client', 'csrsigning-apiserver-client'],
  ['platform/legacy-unknown', 'csrsigning-legacy-unknown'],
  ['example.com/short-lived', 'csrsigning-example.com-short-lived'],
  ['example.com/team/a', 'csrsigning-example.com-team-a'],
];
for (const [signer, lane] of names) {
  it(`${signer} signs in lane ${lane}`, () => {
    assert.equal(laneName(signer), lane);
    const full = `plat/controller-manager/csrsigning/${laneName(signer)}`;
    assert.equal(vmoduleLevel(parseVModule('csrsigning-*=4'), full), 4);
    assert.equal(vmoduleLevel(parseVModule('csrsigning=4'), full), undefined, 'the signing controller\'s own logger is another');
  });
}
