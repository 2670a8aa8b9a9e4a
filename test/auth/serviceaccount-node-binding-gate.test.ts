// --feature-gates=ServiceAccountTokenNodeBinding=false (beta, on in 1.32): a TokenRequest naming a
// Node is refused with upstream TokenREST's 400 before the Node is looked for; Secret-bound tokens
// are unaffected. With the gate on (the default), see serviceaccount.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';

const TOKEN = '/api/v1/namespaces/default/serviceaccounts/robot/token';
const tokenRequest = (boundObjectRef: Record<string, unknown>) => ({ apiVersion: 'authentication.platform/v1', kind: 'TokenRequest', spec: { boundObjectRef } });

describe('TokenRequest with ServiceAccountTokenNodeBinding=false', () => {
  let plat: RunningPlat;
  before(async () => {
    plat = await startInProcess({ args: ['--feature-gates=ServiceAccountTokenNodeBinding=false'] });
    for (const [path, kind, name] of [['/api/v1/namespaces/default/serviceaccounts', 'ServiceAccount', 'robot'], ['/api/v1/nodes', 'Node', 'n1'],
      ['/api/v1/namespaces/default/secrets', 'Secret', 'anchor']] as const) {
      const r = await plat.admin.post(path, { apiVersion: 'v1', kind, metadata: { name } });
      assert.equal(r.status, 201, r.text);
    }
  });
  after(async () => { await plat?.stop(); });

  const refused = 'cannot bind token to a Node object as the "ServiceAccountTokenNodeBinding" feature-gate is disabled';
  for (const [what, name] of [['an existing Node', 'n1'], ['a Node that is not there (refused before the lookup)', 'missing']] as const) {
    it(`refuses to bind a token to ${what}`, async () => {
      const r = await plat.admin.post(TOKEN, tokenRequest({ kind: 'Node', apiVersion: 'v1', name }));
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.reason, 'BadRequest');
      assert.equal(r.json.message, refused);
    });
  }

  it('still binds tokens to Secrets', async () => {
    const r = await plat.admin.post(TOKEN, tokenRequest({ kind: 'Secret', apiVersion: 'v1', name: 'anchor' }));
    assert.equal(r.status, 201, r.text);
    assert.equal(typeof r.json.status.token, 'string');
  });
});
