// Bootstrap tokens end to end: the Secret is created through the API as the admin, then a request
// bearing `<id>.<secret>` is system:bootstrap:<id> in system:bootstrappers (+ extras).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const SECRETS = '/api/v1/namespaces/plat-system/secrets';

function tokenSecret(id: string, secret: string, extra: Record<string, string> = {}) {
  return {
    apiVersion: 'v1', kind: 'Secret', metadata: { name: `bootstrap-token-${id}` }, type: 'bootstrap.platform/token',
    stringData: { 'token-id': id, 'token-secret': secret, 'usage-bootstrap-authentication': 'true', ...extra },
  };
}

describe('bootstrap token authentication', () => {
  let plat: RunningPlat;
  const fx = fixtures();
  before(async () => {
    plat = await startInProcess({ args: ['--enable-bootstrap-token-auth'] });
    const future = new Date(Date.now() + 3600_000).toISOString();
    const past = new Date(Date.now() - 60_000).toISOString();
    for (const s of [
      tokenSecret('abcdef', '0123456789abcdef', { expiration: future, 'auth-extra-groups': 'system:bootstrappers:kubeadm:default-node-token' }),
      tokenSecret('expird', '0123456789abcdef', { expiration: past }),
      tokenSecret('nouse0', '0123456789abcdef', { 'usage-bootstrap-authentication': 'false' }),
    ]) {
      const r = await plat.admin.post(SECRETS, s);
      assert.equal(r.status, 201, r.text);
    }
  });
  after(async () => { await plat?.stop(); });

  it('a valid token creates a CSR as system:bootstrap:<id>', async () => {
    const r = await plat.admin.with({ token: 'abcdef.0123456789abcdef' }).post(CSRS, baseCsr(fx, 'boot-1'));
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.spec.username, 'system:bootstrap:abcdef');
    assert.deepEqual(r.json.spec.groups, ['system:bootstrappers', 'system:bootstrappers:kubeadm:default-node-token', 'system:authenticated']);
  });

  it('expired, wrong-secret, usage-false, unknown and malformed tokens are 401 and store nothing', async () => {
    for (const [i, token] of ['expird.0123456789abcdef', 'abcdef.0123456789abcdee', 'nouse0.0123456789abcdef', 'zzzzzz.0123456789abcdef', 'abcdef.short'].entries()) {
      const r = await plat.admin.with({ token }).post(CSRS, baseCsr(fx, `refused-${i}`));
      assert.equal(r.status, 401, `${token}: ${r.text}`);
      assert.equal((await plat.admin.get(`${CSRS}/refused-${i}`)).status, 404);
    }
  });
});

describe('bootstrap token authentication is off by default', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess(); });
  after(async () => { await plat?.stop(); });
  it('a token Secret does not authenticate', async () => {
    await plat.admin.post(SECRETS, tokenSecret('abcdef', '0123456789abcdef'));
    const r = await plat.admin.with({ token: 'abcdef.0123456789abcdef' }).get(CSRS);
    assert.equal(r.status, 401);
  });
});
