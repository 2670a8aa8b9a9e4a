// kubectl apply -k of RBAC objects under a namePrefix (examples/kustomize-rbac): kustomize renames
// roleRef and ServiceAccount subjects only in the groups it knows, so without the example's
// configurations file a RoleBinding of plat's group keeps the old names; with it, the binding
// names the renamed Role and account, and the account gets what the Role grants.
import assert from 'node:assert/strict';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { Kubectl } from '../helpers/kubectl.js';
import { repoRoot, startProcess, tempDir, type RunningPlat } from '../helpers/plat.js';

const EXAMPLE = path.join(repoRoot, 'examples', 'kustomize-rbac');

describe('kubectl apply -k with RBAC objects of plat\'s group', () => {
  let plat: RunningPlat & { stop(): Promise<void> };
  let k: Kubectl;
  let scratch: string;
  before(async () => {
    plat = await startProcess({ args: ['--authorization-mode=RBAC'] });
    k = new Kubectl(plat.kubeconfig);
    scratch = tempDir('plat-kustomize-');
  });
  after(async () => { await plat?.stop(); rmSync(scratch, { recursive: true, force: true }); });

  const binding = async (dir: string) => {
    const r = await k.run(['kustomize', dir]);
    assert.equal(r.code, 0, r.stderr);
    return parseAllDocuments(r.stdout).map((d) => d.toJSON()).find((o) => o.kind === 'RoleBinding');
  };

  it('without the configurations file, kustomize leaves the binding on the old names (the trap)', async () => {
    const bare = path.join(scratch, 'bare');
    cpSync(EXAMPLE, bare, { recursive: true });
    const file = path.join(bare, 'kustomization.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^configurations:.*\n/m, ''));
    const rb = await binding(bare);
    assert.equal(rb.metadata.name, 'kz-reader');
    assert.equal(rb.roleRef.name, 'reader');
    assert.equal(rb.subjects[0].name, 'bot');
  });

  it('with it, roleRef and the subject follow the renamed Role and ServiceAccount', async () => {
    const rb = await binding(EXAMPLE);
    assert.equal(rb.roleRef.name, 'kz-reader');
    assert.deepEqual(rb.subjects, [{ kind: 'ServiceAccount', name: 'kz-bot' }]);
  });

  it('applied to plat, the renamed account may do what the Role grants', async () => {
    const applied = await k.run(['apply', '-k', EXAMPLE]);
    assert.equal(applied.code, 0, applied.stderr);
    const can = await k.run(['auth', 'can-i', 'list', 'secrets', '-n', 'kz-example', '--as', 'system:serviceaccount:kz-example:kz-bot']);
    assert.equal(can.stdout.trim(), 'yes', can.stderr);
    const elsewhere = await k.run(['auth', 'can-i', 'list', 'secrets', '-n', 'default', '--as', 'system:serviceaccount:kz-example:kz-bot']);
    assert.equal(elsewhere.stdout.trim(), 'no', elsewhere.stderr);
  });
});
