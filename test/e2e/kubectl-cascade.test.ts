// kubectl's --cascade against the `plat all` command, whose garbage collector runs: a foreground
// delete of a ServiceAccount returns once the account and the Secret it owns are both gone (kubectl
// waits for the owner, which the collector lets go after the Secret); an orphan delete leaves the
// Secret, without its reference; the default (background) takes the Secret after the account.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Kubectl } from '../helpers/kubectl.js';
import { startProcess, type RunningPlat } from '../helpers/plat.js';
import { until } from '../controller-manager/support.js';

describe('kubectl delete --cascade', () => {
  let plat: RunningPlat & { stop(): Promise<void> };
  let k: Kubectl;
  before(async () => {
    plat = await startProcess();
    k = new Kubectl(plat.kubeconfig);
  });
  after(async () => { await plat?.stop(); });

  const ok = async (args: string[], input?: string) => {
    const r = await k.run(args, input);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  /** A ServiceAccount and a Secret it owns (blocking its deletion). */
  const pair = async (name: string) => {
    await ok(['create', 'serviceaccount', name]);
    const uid = await ok(['get', 'serviceaccount', name, '-o', 'jsonpath={.metadata.uid}']);
    const secret = {
      apiVersion: 'v1', kind: 'Secret',
      metadata: { name: `${name}-secret`, ownerReferences: [{ apiVersion: 'v1', kind: 'ServiceAccount', name, uid, blockOwnerDeletion: true }] },
    };
    await ok(['create', '-f', '-'], JSON.stringify(secret));
    return uid;
  };
  const exists = async (what: string) => (await k.run(['get', what, '-o', 'name'])).code === 0;

  it('--cascade=foreground returns with the owner and its dependent gone', async () => {
    await pair('fg');
    assert.equal(await ok(['delete', 'serviceaccount', 'fg', '--cascade=foreground']), 'serviceaccount "fg" deleted\n');
    assert.equal(await exists('serviceaccount/fg'), false);
    assert.equal(await exists('secret/fg-secret'), false, 'the dependent went first');
  });

  it('--cascade=orphan leaves the dependent without its reference', async () => {
    await pair('or');
    assert.equal(await ok(['delete', 'serviceaccount', 'or', '--cascade=orphan']), 'serviceaccount "or" deleted\n');
    assert.equal(await exists('serviceaccount/or'), false);
    assert.equal(await ok(['get', 'secret', 'or-secret', '-o', 'jsonpath={.metadata.ownerReferences}']), '');
  });

  it('the default (background) deletes the dependent after the owner', async () => {
    await pair('bg');
    assert.equal(await ok(['delete', 'serviceaccount', 'bg']), 'serviceaccount "bg" deleted\n');
    await until(async () => !(await exists('secret/bg-secret')), 'bg-secret collected');
  });
});
