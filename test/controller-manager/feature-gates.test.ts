// The controller manager takes the gates an operator moving from kube-controller-manager passes:
// those about what plat does not run are accepted as upstream accepts them, GA ones with
// upstream's warning, and the gates in force are the host's for its plugins to read.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { adminKubeconfig, startControllerManager } from './support.js';

describe('controller manager --feature-gates', () => {
  let plat: RunningPlat;
  let admin: string;
  before(async () => {
    plat = await startInProcess();
    admin = adminKubeconfig(plat);
  });
  after(() => plat.stop());

  const cases: Array<[string, string[], Record<string, boolean>, RegExp | undefined]> = [
    ['RotateKubeletServerCertificate=true', ['--feature-gates=RotateKubeletServerCertificate=true'], { RotateKubeletServerCertificate: true }, undefined],
    ['kube: prefixed, over two flags', ['--feature-gates=kube:RotateKubeletServerCertificate=false', '--feature-gates=kube:SchedulerQueueingHints=false'],
      { RotateKubeletServerCertificate: false, SchedulerQueueingHints: false }, undefined],
    ['a GA gate, with the warning', ['--feature-gates=ServiceAccountTokenJTI=true'], { ServiceAccountTokenJTI: true },
      /Setting GA feature gate ServiceAccountTokenJTI=true\. It will be removed in a future release\./],
  ];
  for (const [what, args, expected, warning] of cases) {
    it(`starts with ${what}`, async () => {
      const cm = await startControllerManager(['--platconfig', admin, '--secure-port=0', '--leader-elect=false', ...args]);
      try {
        for (const [gate, on] of Object.entries(expected)) assert.equal(cm.host.featureGates.enabled(gate), on, gate);
        if (warning) assert.match(cm.logs.join(''), warning);
      } finally {
        await cm.stop();
      }
    });
  }
});
