// --use-service-account-credentials against a real plat API server under RBAC: the controller
// manager creates plat-system/certificate-controller, the CSR controllers' writes are made as that
// service account (with a TokenRequest token, none of the controller manager's own credentials),
// so the bootstrap binding to system:controller:certificate-controller is what lets them sign;
// without it the status update is forbidden and nothing is issued until it is back.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Attributes } from '../../core/authz/attributes.js';
import type { Plugin } from '../../core/plugin.js';
import { ApiError, isApiError, RestClient } from '../../core/client/rest-client.js';
import { loadKubeconfig } from '../../core/client/kubeconfig.js';
import { createLogger, silentLogger } from '../../core/log.js';
import { ServiceAccountClients } from '../../plugins/controller-manager/service-account-clients.js';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { startControllerManager, until, adminKubeconfig, type RunningControllerManager } from './support.js';

const SA_USER = 'system:serviceaccount:plat-system:certificate-controller';
const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const BINDING = '/apis/rbac.authorization.platform/v1/clusterrolebindings/system:controller:certificate-controller';

interface StatusWrite { readonly user: Attributes['user']; readonly name: string }

/** Status updates of CSRs: every attempt (first of all taps), and those no authorizer allowed (last); TokenRequests. */
function statusWrites(): { plugin: Plugin; attempts: StatusWrite[]; refused: StatusWrite[]; tokenRequests: () => number } {
  const attempts: StatusWrite[] = [];
  const refused: StatusWrite[] = [];
  let tokenRequests = 0;
  const isStatusWrite = (a: Attributes) => a.resource === 'certificatesigningrequests' && a.subresource === 'status' && a.verb === 'update';
  return {
    attempts, refused, tokenRequests: () => tokenRequests,
    plugin: {
      name: 'StatusWritesForTests',
      apply(host) {
        host.hooks.authorize.tap({ name: 'StatusWritesForTests', stage: -Infinity }, (a) => {
          if (isStatusWrite(a)) attempts.push({ user: a.user, name: a.name });
          if (a.resource === 'serviceaccounts' && a.subresource === 'token' && a.verb === 'create') tokenRequests++;
          return undefined;
        });
        host.hooks.authorize.tap({ name: 'StatusWritesRefusedForTests', stage: Infinity }, (a) => { if (isStatusWrite(a)) refused.push({ user: a.user, name: a.name }); return undefined; });
      },
    },
  };
}

describe('--use-service-account-credentials', () => {
  const writes = statusWrites();
  const fx = fixtures();
  let plat: RunningPlat;
  let cm: RunningControllerManager;

  before(async () => {
    // plat all's own signing controller stays off: only the controller manager under test signs.
    plat = await startInProcess({ args: ['--authorization-mode=Node,RBAC', '--controllers=*,-csrsigning'], plugins: [writes.plugin] });
    const pki = path.join(plat.dataDir, 'pki');
    cm = await startControllerManager(['--platconfig', adminKubeconfig(plat),
      '--leader-elect=false', '--secure-port=0', '--use-service-account-credentials', '--controllers', 'csrsigning',
      '--cluster-signing-cert-file', path.join(pki, 'ca.crt'), '--cluster-signing-key-file', path.join(pki, 'ca.key')]);
  });
  after(async () => {
    await cm?.stop();
    await plat?.stop();
  });

  const submitApproved = async (name: string) => {
    const csr = baseCsr(fx, name);
    csr.spec.signerName = 'platform/apiserver-client';
    assert.equal((await plat.admin.post(CSRS, csr)).status, 201);
    const created = (await plat.admin.get(`${CSRS}/${name}`)).json;
    created.status = { conditions: [{ type: 'Approved', status: 'True', reason: 'ByTest', message: 'approved by the test' }] };
    const approved = await plat.admin.put(`${CSRS}/${name}/approval`, created);
    assert.equal(approved.status, 200, approved.text);
  };
  const issued = (name: string) => until(async () => (await plat.admin.get(`${CSRS}/${name}`)).json?.status?.certificate, `${name} issued`);

  it("creates the controllers' service account and signs as it", async () => {
    await until(async () => (await plat.admin.get('/api/v1/namespaces/plat-system/serviceaccounts/certificate-controller')).status === 200, 'the service account');
    await submitApproved('as-the-service-account');
    await issued('as-the-service-account');
    const write = writes.attempts.find((w) => w.name === 'as-the-service-account');
    assert.equal(write?.user.name, SA_USER);
    assert.deepEqual(write?.user.groups.slice().sort(), ['system:authenticated', 'system:serviceaccounts', 'system:serviceaccounts:plat-system']);
  });

  it('is held to the service account\'s RBAC rights, not the controller manager\'s', async () => {
    const binding = (await plat.admin.get(BINDING)).json;
    assert.equal((await plat.admin.delete(BINDING)).status, 200);
    await submitApproved('without-the-binding');
    await until(async () => writes.refused.some((w) => w.name === 'without-the-binding' && w.user.name === SA_USER), 'a refused status update by the service account');
    assert.equal((await plat.admin.get(`${CSRS}/without-the-binding`)).json.status.certificate, undefined);

    const { resourceVersion: _rv, uid: _uid, creationTimestamp: _ct, managedFields: _mf, ...metadata } = binding.metadata;
    assert.equal((await plat.admin.post('/apis/rbac.authorization.platform/v1/clusterrolebindings', { ...binding, metadata })).status, 201);
    await issued('without-the-binding');
  });

  it('keeps a token until 80% of its hour has passed, and drops it after a 401', async () => {
    let now = Date.now();
    const root = new RestClient(loadKubeconfig(plat.kubeconfig));
    const clients = new ServiceAccountClients({ root, rootConnection: root.connection, clientOptions: {}, defaultAgent: 'test', logger: silentLogger, now: () => now });
    try {
      const client = await clients.clientFor('token-cache-test');
      const asked = writes.tokenRequests();
      await client.request('GET', '/api');
      await client.request('GET', '/api');
      assert.equal(writes.tokenRequests() - asked, 1, 'one token for both requests');
      now += 47 * 60_000;
      await client.request('GET', '/api');
      assert.equal(writes.tokenRequests() - asked, 1, 'still valid at 47 minutes');
      now += 2 * 60_000;
      await client.request('GET', '/api');
      assert.equal(writes.tokenRequests() - asked, 2, 'renewed past 48 minutes (80% of an hour)');

      // Deleting the account invalidates its tokens: the 401 resets the cache, the next request gets a new one.
      assert.equal((await plat.admin.delete('/api/v1/namespaces/plat-system/serviceaccounts/token-cache-test')).status, 200);
      await assert.rejects(client.request('GET', '/api'), (e: unknown) => isApiError(e) && e.code === 401);
      await client.request('GET', '/api');
      assert.equal(writes.tokenRequests() - asked, 3, 'a fresh token after the 401, for a recreated account');
    } finally {
      clients.close();
      root.close();
    }
  });
});

describe('--use-service-account-credentials against an API server without TokenRequests', () => {
  it('says what the API server lacks', async () => {
    // The answers of an API server without --service-account-issuer: the account exists, its token subresource is not served.
    const root = {
      request: async (method: string, p: string) => {
        if (method === 'POST' && p.endsWith('/token')) {
          throw new ApiError(404, 'NotFound', 'the server could not find the requested resource', { kind: 'Status', code: 404, reason: 'NotFound', details: {} });
        }
        return {};
      },
      connection: { server: 'https://127.0.0.1:1' },
    } as unknown as RestClient;
    const lines: string[] = [];
    const logger = createLogger({ verbosity: 0, write: (l) => lines.push(l) });
    const clients = new ServiceAccountClients({ root, rootConnection: root.connection, clientOptions: {}, defaultAgent: 'test', logger, sleep: async () => {} });
    try {
      const client = await clients.clientFor('certificate-controller');
      await assert.rejects(client.request('GET', '/api'), (e: Error) => {
        assert.match(e.message, /^failed to get token for plat-system\/certificate-controller: the server could not find the requested resource \(the API server serves no TokenRequests: it needs --service-account-issuer and --service-account-signing-key-file\)$/);
        return true;
      });
      assert.ok(lines.some((l) => l.includes('requesting token for service account failed') && l.includes('--service-account-issuer')), lines.join('\n'));
    } finally {
      clients.close();
    }
  });
});

describe('--use-service-account-credentials and the tokens controller', () => {
  const updates: { user: string; name: string }[] = [];
  const recorder: Plugin = {
    name: 'SecretUpdatesForTests',
    apply(host) {
      host.hooks.authorize.tap({ name: 'SecretUpdatesForTests', stage: -Infinity }, (a) => {
        if (a.resource === 'secrets' && a.verb === 'update') updates.push({ user: a.user.name, name: a.name });
        return undefined;
      });
    },
  };
  let plat: RunningPlat;
  let cm: RunningControllerManager;
  before(async () => {
    plat = await startInProcess({ args: ['--authorization-mode=Node,RBAC', '--controllers='], plugins: [recorder] });
    const key = path.join(plat.dataDir, 'legacy.key');
    writeFileSync(key, generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
    cm = await startControllerManager(['--platconfig', adminKubeconfig(plat), '--leader-elect=false', '--secure-port=0',
      '--use-service-account-credentials', '--controllers', 'serviceaccount-token', '--service-account-private-key-file', key]);
  });
  after(async () => { await cm?.stop(); await plat?.stop(); });

  it("fills token Secrets with the controller manager's own credentials and its kubeconfig's CA, as upstream's root client", async () => {
    const ns = '/api/v1/namespaces/default';
    assert.equal((await plat.admin.post(`${ns}/serviceaccounts`, { metadata: { name: 'robot' } })).status, 201);
    assert.equal((await plat.admin.post(`${ns}/secrets`, { metadata: { name: 'robot-token', annotations: { 'platform/service-account.name': 'robot' } }, type: 'platform/service-account-token' })).status, 201);
    const s = await until(async () => { const r = (await plat.admin.get(`${ns}/secrets/robot-token`)).json; return r.data?.token ? r : undefined; }, 'the token');
    assert.deepEqual(updates.filter((u) => u.name === 'robot-token').map((u) => u.user), ['plat-admin']);
    assert.equal(Buffer.from(s.data['ca.crt'], 'base64').toString('utf8'), readFileSync(path.join(plat.dataDir, 'pki', 'ca.crt'), 'utf8'));
    assert.ok(cm.logs.some((l) => l.includes('Started controller') && l.includes('serviceaccount-token-controller')));
  });
});
