// `kubectl delete ns` against the real `plat all` (whose namespace controller runs in-process, with
// upstream's 5 s grace period): --wait=false returns with the namespace Terminating; the default
// waits until the controller has emptied and finalized it, so what was in it is gone when kubectl
// returns and the name can be made again, empty.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Kubectl } from '../helpers/kubectl.js';
import { startProcess, type RunningPlat } from '../helpers/plat.js';

describe('kubectl delete namespace against plat all', () => {
  let plat: RunningPlat;
  let kubectl: Kubectl;
  before(async () => { plat = await startProcess(); kubectl = new Kubectl(plat.kubeconfig); });
  after(async () => { await plat?.stop(); });

  const ok = async (args: string[]) => {
    const r = await kubectl.run(args);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };

  it('--wait=false leaves it Terminating; the default waits until it is gone with its content', async () => {
    for (const ns of ['nowait', 'waited']) {
      await ok(['create', 'namespace', ns]);
      await ok(['-n', ns, 'create', 'secret', 'generic', 's', '--from-literal=a=b']);
      await ok(['-n', ns, 'create', 'serviceaccount', 'bot']);
    }
    assert.equal(await ok(['delete', 'ns', 'nowait', '--wait=false']), 'namespace "nowait" deleted\n');
    assert.match(await ok(['get', 'ns', 'nowait', '--no-headers']), /^nowait\s+Terminating\s/);

    const started = Date.now();
    assert.equal(await ok(['delete', 'ns', 'waited']), 'namespace "waited" deleted\n');
    assert.ok(Date.now() - started >= 4_000, 'kubectl waited for the controller (its 5 s grace period at least)');
    const gone = await kubectl.run(['get', 'ns', 'waited']);
    assert.equal(gone.code, 1);
    assert.equal(gone.stderr, 'Error from server (NotFound): namespaces "waited" not found\n');

    await ok(['create', 'namespace', 'waited']);
    const secrets = await kubectl.run(['-n', 'waited', 'get', 'secrets']);
    assert.equal(secrets.code, 0, secrets.stderr);
    assert.equal(secrets.stdout, '');
    assert.equal(secrets.stderr, 'No resources found in waited namespace.\n');
    // The service account controller gives the new namespace its own `default`; `bot` stays gone.
    await ok(['-n', 'waited', 'wait', '--for=create', 'serviceaccount/default', '--timeout=30s']);
    assert.equal(await ok(['-n', 'waited', 'get', 'serviceaccounts', '-o', 'name']), 'serviceaccount/default\n');
    // The one deleted without waiting went the same way meanwhile.
    assert.equal((await kubectl.run(['get', 'ns', 'nowait'])).code, 1);
  });
});
