// The controller manager takes the gates an operator moving from kube-controller-manager passes:
// those about what plat does not run are accepted as upstream accepts them, GA ones with
// upstream's warning, and the gates in force are the host's for its plugins to read.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connectH2, h2Fetch } from '../helpers/http2-client.js';
import { freePort, startInProcess, type RunningPlat } from '../helpers/plat.js';
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

  // UnauthenticatedHTTP2DOSMitigation (beta, on): the endpoint's WithAuthentication sends GOAWAY after
  // an anonymous request over HTTP/2, as the API server's; with the gate off the connection stays.
  for (const [what, args, mitigated] of [['on by default', [], true], ['set off', ['--feature-gates=UnauthenticatedHTTP2DOSMitigation=false'], false]] as const) {
    it(`UnauthenticatedHTTP2DOSMitigation ${what}: an anonymous HTTP/2 connection ${mitigated ? 'gets a GOAWAY' : 'stays open'}`, async () => {
      const cm = await startControllerManager(['--platconfig', admin, '--bind-address', '127.0.0.1', '--secure-port', String(await freePort()), '--leader-elect=false', ...args]);
      const session = await connectH2(cm.url, { ca: cm.anonymous.creds.ca! });
      try {
        // Bounded: no GOAWAY within 10 s is a failure, not a hung run.
        const gone = mitigated && new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(false), 10_000);
          session.once('goaway', () => { clearTimeout(timer); resolve(true); });
        });
        assert.equal((await h2Fetch(session, 'GET', '/healthz')).status, 200);
        if (gone) {
          assert.equal(await gone, true);
          await assert.rejects(h2Fetch(session, 'GET', '/healthz'));
        } else {
          assert.equal((await h2Fetch(session, 'GET', '/healthz')).status, 200);
        }
      } finally {
        session.destroy();
        await cm.stop();
      }
    });
  }
});
