// Each signer's lane logs under upstream's name (csrsigning-kubelet-client for
// kubernetes.io/kube-apiserver-client-kubelet, renamed as the signers are), another signer's under
// one of that form: a single component, so --vmodule patterns can select lanes.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { vmoduleLevel, parseVModule } from '../../core/log-vmodule.js';
import { laneName } from '../../plugins/csrsigning/signing-controller.js';

const names: [signer: string, lane: string][] = [
  ['platform/nodeagent-serving', 'csrsigning-nodeagent-serving'],
  ['platform/apiserver-client-nodeagent', 'csrsigning-nodeagent-client'],
  ['platform/apiserver-client', 'csrsigning-plat-apiserver-client'],
  ['platform/legacy-unknown', 'csrsigning-legacy-unknown'],
  ['example.com/short-lived', 'csrsigning-example.com-short-lived'],
  ['example.com/team/a', 'csrsigning-example.com-team-a'],
];
for (const [signer, lane] of names) {
  it(`${signer} signs in lane ${lane}`, () => {
    assert.equal(laneName(signer), lane);
    const full = `plat/controller-manager/certificatesigningrequest-signing-controller/${laneName(signer)}`;
    assert.equal(vmoduleLevel(parseVModule('csrsigning-*=4'), full), 4);
    assert.equal(vmoduleLevel(parseVModule('certificatesigningrequest-signing-controller=4'), full), undefined, 'the signing controller\'s own logger is another');
  });
}
