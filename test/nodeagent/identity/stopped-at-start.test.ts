// A node agent told to stop while its client identity was still reading its kubeconfig (a SIGTERM
// just after start, another subsystem failing at once) stops: it sends no bootstrap CSR, writes no
// certificate (the kubeconfig naming the certificate to come is written by the read, as upstream's
// LoadClientConfig writes it), and ends at once. Before, the stop fell between the kubeconfig read and the
// listener: the agent went on to bootstrap, and its shutdown waited 30 s for the subsystem and
// exited 1. Against a real `plat all` on 127.0.0.1, with a bootstrap token; waits are bounded.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Flags } from '../../../core/flags/flag-set.js';
import { runClientIdentity } from '../../../plugins/nodeagent-identity/client-identity.js';
import { createBootstrapToken } from '../../helpers/bootstrap-token.js';
import { writeBootstrapKubeconfig } from '../../helpers/nodeagent-process.js';
import { nodeAgentTestContext } from '../../helpers/nodeagent-context.js';
import { startInProcess, tempDir, type RunningPlat } from '../../helpers/plat.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';

describe('node agent client identity stopped before it started', () => {
  let plat: RunningPlat;
  let token = '';
  before(async () => {
    plat = await startInProcess({ args: ['--enable-bootstrap-token-auth'] });
    token = await createBootstrapToken(plat.admin);
  });
  after(async () => { await plat?.stop(); });

  for (const rotateCertificates of [true, false]) {
    it(`sends no CSR and ends at once (rotateCertificates: ${rotateCertificates})`, async () => {
      const dir = tempDir();
      const bootstrap = path.join(dir, 'bootstrap.conf');
      writeBootstrapKubeconfig(bootstrap, plat.url, path.join(plat.dataDir, 'pki', 'ca.crt'), token);
      const flags = new Flags();
      for (const name of ['platconfig', 'bootstrap-kubeconfig', 'cert-dir']) flags.define({ name, type: 'string', section: '', help: '' });
      flags.parse(['--platconfig', path.join(dir, 'nodeagent.conf'), '--bootstrap-kubeconfig', bootstrap, '--cert-dir', path.join(dir, 'pki')]);
      const ctx = nodeAgentTestContext({ flags, config: { rotateCertificates } });
      const stopped = new AbortController();
      stopped.abort();
      const ended = runClientIdentity(ctx, { version: 'test', exit: (reason) => { throw new Error(`exit requested: ${reason}`); } }, stopped.signal);
      const outcome = await Promise.race([ended.then(() => 'ended'), new Promise((r) => setTimeout(() => r('still running after 20 s'), 20_000).unref())]);
      if (outcome !== 'ended') {
        // The identity runs on with nothing left to stop it, and would hold this file's process for
        // good: it is ended once the failure has been reported.
        setTimeout(() => process.exit(1), 5_000).unref();
        assert.fail(`runClientIdentity with a stopped signal: ${String(outcome)}`);
      }
      assert.deepEqual((await plat.admin.get(CSRS)).json.items, [], 'no CSR sent');
      assert.deepEqual(existsSync(path.join(dir, 'pki')) ? readdirSync(path.join(dir, 'pki')) : [], [], 'no certificate written');
    });
  }
});
