// NodeRestriction over HTTPS (k8s-behaviour §3.3): a node (client certificate CN=system:node:<n>,
// O=system:nodes from the plat's CA) may create CSRs for the node-agent signers only for its own
// CN. It is a mutating plugin, so it refuses before validation, and it is off unless enabled.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '../helpers/plat.js';
import { fixtures, b64 } from '../certificates/fixtures.js';
import { assertForbidden, clientCertFromPlatCa, csrObject, CSR_PATH, csrPem, startAdmissionPlat, type AdmissionPlat } from './support.js';

const CLIENT = 'platform/apiserver-client-nodeagent';
const SERVING = 'platform/nodeagent-serving';
const SERVING_USAGES = ['digital signature', 'server auth'];
const WRONG_CN = 'can only create a node CSR with CN=system:node:n1';

interface Csrs { own: string; other: string }
const makeCsrs = (): Csrs => ({
  own: csrPem('/O=system:nodes/CN=system:node:n1'),
  other: csrPem('/O=system:nodes/CN=system:node:n2'),
});

describe('NodeRestriction enabled', () => {
  let a: AdmissionPlat;
  let node: Client;
  let csrs: Csrs;
  let n = 0;
  const name = () => `node-csr-${n++}`;
  before(async () => {
    csrs = makeCsrs();
    a = await startAdmissionPlat({
      args: ['--enable-admission-plugins=NodeRestriction'],
      users: { 'system:node:': ['system:nodes'], 'system:node:n1': ['not-nodes'] },
    });
    node = clientCertFromPlatCa(a.plat, 'system:node:n1', ['system:nodes']);
  });
  after(async () => { await a?.stop(); });

  for (const [signer, usages] of [[CLIENT, undefined], [SERVING, SERVING_USAGES]] as const) {
    it(`lets a node create a ${signer} CSR for its own CN`, async () => {
      const r = await node.post(CSR_PATH, csrObject(name(), signer, csrs.own, usages ? { usages: [...usages] } : {}));
      assert.equal(r.status, 201, r.text);
      assert.equal(r.json.spec.username, 'system:node:n1');
    });
    it(`refuses a node's ${signer} CSR for another node's CN`, async () => {
      const id = name();
      assertForbidden(await node.post(CSR_PATH, csrObject(id, signer, csrs.other, usages ? { usages: [...usages] } : {})), id, WRONG_CN);
    });
  }

  it('leaves other signers to their own policy', async () => {
    const r = await node.post(CSR_PATH, csrObject(name(), 'example.com/my-signer', csrs.other));
    assert.equal(r.status, 201, r.text);
  });

  it('does not restrict users that are not nodes', async () => {
    assert.equal((await a.plat.admin.post(CSR_PATH, csrObject(name(), CLIENT, csrs.other))).status, 201);
    // The node name prefix without the system:nodes group is not a node.
    assert.equal((await a.as('system:node:n1').post(CSR_PATH, csrObject(name(), CLIENT, csrs.other))).status, 201);
  });

  it('refuses before validation: a wrong CN with invalid usages is 403, not 422', async () => {
    const id = name();
    assertForbidden(await node.post(CSR_PATH, csrObject(id, CLIENT, csrs.other, { usages: [] })), id, WRONG_CN);
  });

  it('names the generateName prefix: mutating admission runs before the name is generated', async () => {
    assertForbidden(await node.post(CSR_PATH, csrObject('', CLIENT, csrs.other, { generateName: 'csr-' })), 'csr-', WRONG_CN);
  });

  it('refuses a request that is not a CSR with the parse error', async () => {
    const id = name();
    const obj = csrObject(id, SERVING, csrs.own);
    obj.spec.request = b64(fixtures().certPem);
    assertForbidden(await node.post(CSR_PATH, obj), id, 'unable to parse csr: PEM block type must be CERTIFICATE REQUEST');
  });

  it('refuses every write of a node identity without a node name', async () => {
    const nameless = a.as('system:node:');
    const id = name();
    assertForbidden(await nameless.post(CSR_PATH, csrObject(id, 'example.com/my-signer', csrs.own)), id,
      'could not determine node from user "system:node:"');
    const existing = name();
    assert.equal((await a.plat.admin.post(CSR_PATH, csrObject(existing, 'example.com/my-signer', csrs.own))).status, 201);
    assertForbidden(await nameless.delete(`${CSR_PATH}/${existing}`), existing, 'could not determine node from user "system:node:"');
    const secret = await nameless.post('/api/v1/namespaces/default/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' } });
    assert.equal(secret.status, 403, secret.text);
    assert.equal(secret.json.message, 'secrets "s1" is forbidden: could not determine node from user "system:node:"');
  });
});

describe('NodeRestriction is not enabled by default', () => {
  let a: AdmissionPlat;
  before(async () => { a = await startAdmissionPlat(); });
  after(async () => { await a?.stop(); });

  it('lets a node create a CSR for another node\'s CN', async () => {
    const node = clientCertFromPlatCa(a.plat, 'system:node:n1', ['system:nodes']);
    const r = await node.post(CSR_PATH, csrObject('other-cn', CLIENT, csrPem('/O=system:nodes/CN=system:node:n2')));
    assert.equal(r.status, 201, r.text);
  });
});

describe('NodeRestriction with --feature-gates=AllowInsecureKubeletCertificateSigningRequests=true', () => {
  let a: AdmissionPlat;
  before(async () => {
    a = await startAdmissionPlat({ args: ['--enable-admission-plugins=NodeRestriction', '--feature-gates=AllowInsecureKubeletCertificateSigningRequests=true'] });
  });
  after(async () => { await a?.stop(); });

  // Upstream's Admit returns before admitCSR: the node's CSRs go unchecked, as before 1.31.
  it('lets a node create a CSR for another node\'s CN, of either node-agent signer', async () => {
    const node = clientCertFromPlatCa(a.plat, 'system:node:n1', ['system:nodes']);
    const other = csrPem('/O=system:nodes/CN=system:node:n2');
    for (const [name, signer, extra] of [['insecure-client', CLIENT, {}], ['insecure-serving', SERVING, { usages: SERVING_USAGES }]] as const) {
      const r = await node.post(CSR_PATH, csrObject(name, signer, other, extra));
      assert.equal(r.status, 201, r.text);
    }
  });

  it('still restricts the node\'s writes of other Nodes', async () => {
    const node = clientCertFromPlatCa(a.plat, 'system:node:n1', ['system:nodes']);
    const r = await node.post('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n2' } });
    assert.equal(r.status, 403, r.text);
  });
});

describe('NodeRestriction runs in upstream\'s order, not the flag\'s', () => {
  let a: AdmissionPlat;
  let csrs: Csrs;
  before(async () => {
    csrs = makeCsrs();
    a = await startAdmissionPlat({ args: ['--enable-admission-plugins=AlwaysDeny,NodeRestriction'], seed: async () => {} });
  });
  after(async () => { await a?.stop(); });

  it('refuses with NodeRestriction\'s message before AlwaysDeny\'s', async () => {
    const node = clientCertFromPlatCa(a.plat, 'system:node:n1', ['system:nodes']);
    assertForbidden(await node.post(CSR_PATH, csrObject('wrong', CLIENT, csrs.other)), 'wrong', WRONG_CN);
    assertForbidden(await node.post(CSR_PATH, csrObject('right', CLIENT, csrs.own)), 'right', 'admission control is denying all modifications');
  });
});
