// The tokens controller against a real plat (the profile's controllers off, this one run on its
// own): a token Secret naming an account is filled (token, namespace, ca.crt, the uid annotation)
// with a legacy JWT signed by the key; one naming no account, or an account of another uid, is
// deleted; an account's deletion deletes its tokens; a Secret's deletion takes it out of the
// account's `secrets`. Without a key the controller is not started; a root CA file that holds no
// certificate stops it in upstream's words.
import assert from 'node:assert/strict';
import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { keyId } from '../../core/authn/jwt.js';
import { errors } from '../../core/api/errors.js';
import type { Plugin } from '../../core/plugin-api.js';
import { serviceAccountTokenController } from '../../plugins/serviceaccount-token-controller/index.js';
import { runController, type Harness } from '../csrapproving/harness.js';
import { makeCa } from '../helpers/certs.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { until } from '../controller-manager/support.js';

const NS = '/api/v1/namespaces/default';

/** Refuses updates of Secret `refused-token` while `refusing` is set. */
let refusing = true;
const REFUSING: Plugin = {
  name: 'RefusingSecretUpdatesForTest',
  apply(host) {
    host.hooks.admitValidate.tap('RefusingSecretUpdatesForTest', (req) => {
      if (refusing && req.resource === 'secrets' && req.operation === 'UPDATE' && req.name === 'refused-token') {
        throw errors.forbidden({ group: '', resource: 'secrets' }, req.name, 'not yet');
      }
    });
  },
};
const TYPE = 'platform/service-account-token';
const data = (s: any, k: string) => Buffer.from(s.data?.[k] ?? '', 'base64').toString('utf8');

describe('serviceaccount-token controller', () => {
  const dir = tempDir();
  const keyFile = path.join(dir, 'sa.key');
  const caFile = path.join(dir, 'ca.crt');
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }));
  const ca = makeCa({ commonName: "root" }).certificatePem;
  writeFileSync(caFile, ca);
  let plat: RunningPlat;
  let h: Harness<any>;
  before(async () => {
    plat = await startInProcess({ args: ['--controllers='], plugins: [REFUSING] });
    h = runController(plat, serviceAccountTokenController({ privateKeyFile: keyFile, rootCaFile: caFile }), 'serviceaccount-token-controller');
  });
  after(async () => { await h?.stop(); await plat?.stop(); });

  const secret = (name: string, annotations: Record<string, string>) =>
    plat.admin.post(`${NS}/secrets`, { metadata: { name, annotations }, type: TYPE });
  const gone = (p: string) => async () => (await plat.admin.get(p)).status === 404;

  it('fills a token Secret of an existing account with a legacy token, its namespace and the root CA', async () => {
    const sa = (await plat.admin.post(`${NS}/serviceaccounts`, { metadata: { name: 'builder' } })).json;
    assert.equal((await secret('builder-token', { 'platform/service-account.name': 'builder' })).status, 201);
    const filled = await until(async () => { const s = (await plat.admin.get(`${NS}/secrets/builder-token`)).json; return s.data?.token ? s : undefined; }, 'the token');
    assert.equal(data(filled, 'namespace'), 'default');
    assert.equal(data(filled, 'ca.crt'), ca);
    assert.equal(filled.metadata.annotations['platform/service-account.uid'], sa.metadata.uid);
    const token = data(filled, 'token');
    const [header, payload, sig] = token.split('.');
    assert.deepEqual(JSON.parse(Buffer.from(header!, 'base64url').toString()), { alg: 'ES256', kid: keyId(privateKey) });
    // Upstream's claim set (LegacyClaims), in plat's names, keys as Go's json.Marshal sorts them.
    assert.equal(Buffer.from(payload!, 'base64url').toString(), JSON.stringify({
      iss: 'platform/serviceaccount',
      'platform/serviceaccount/namespace': 'default',
      'platform/serviceaccount/secret.name': 'builder-token',
      'platform/serviceaccount/service-account.name': 'builder',
      'platform/serviceaccount/service-account.uid': sa.metadata.uid,
      sub: 'system:serviceaccount:default:builder',
    }));
    assert.ok(verify('sha256', Buffer.from(`${header}.${payload}`), { key: createPublicKey(privateKey), dsaEncoding: 'ieee-p1363' }, Buffer.from(sig!, 'base64url')));
  });

  it('deletes a token Secret whose account does not exist or has another uid', async () => {
    assert.equal((await secret('nobody-token', { 'platform/service-account.name': 'nobody' })).status, 201);
    await until(gone(`${NS}/secrets/nobody-token`), 'the orphan deleted');
    assert.equal((await plat.admin.post(`${NS}/serviceaccounts`, { metadata: { name: 'other' } })).status, 201);
    assert.equal((await secret('stale-token', { 'platform/service-account.name': 'other', 'platform/service-account.uid': 'not-its-uid' })).status, 201);
    await until(gone(`${NS}/secrets/stale-token`), 'the stale token deleted');
    assert.ok(h.logged('Service account does not exist, deleting token', 'secret="default/stale-token"'));
  });

  it('deletes the tokens of a deleted account, and takes a deleted token out of its account', async () => {
    assert.equal((await plat.admin.post(`${NS}/serviceaccounts`, { metadata: { name: 'temp' } })).status, 201);
    assert.equal((await secret('temp-token', { 'platform/service-account.name': 'temp' })).status, 201);
    await until(async () => (await plat.admin.get(`${NS}/secrets/temp-token`)).json.data?.token, 'temp token filled');
    // A Secret named by its account: deleting the Secret removes the reference.
    const sa = (await plat.admin.get(`${NS}/serviceaccounts/builder`)).json;
    assert.equal((await plat.admin.put(`${NS}/serviceaccounts/builder`, { ...sa, secrets: [{ name: 'builder-token' }, { name: 'kept' }] })).status, 200);
    assert.equal((await plat.admin.delete(`${NS}/secrets/builder-token`)).status, 200);
    await until(async () => {
      const names = (await plat.admin.get(`${NS}/serviceaccounts/builder`)).json.secrets?.map((s: any) => s.name);
      return JSON.stringify(names) === JSON.stringify(['kept']);
    }, 'the reference removed');
    assert.equal((await plat.admin.delete(`${NS}/serviceaccounts/temp`)).status, 200);
    await until(gone(`${NS}/secrets/temp-token`), 'temp token deleted with its account');
  });

  it('logs a refused update in upstream\'s words and retries it through the rate limiter', async () => {
    assert.equal((await plat.admin.post(`${NS}/serviceaccounts`, { metadata: { name: 'builder-2' } })).status, 201);
    assert.equal((await secret('refused-token', { 'platform/service-account.name': 'builder-2' })).status, 201);
    await until(async () => h.logged('Populating serviceaccount token', 'err="secrets \\"refused-token\\" is forbidden: not yet"', 'secret="default/refused-token"', 'serviceAccount="default/builder-2"'), 'the failure logged');
    refusing = false;
    // The backoff doubles from 5 ms: a few failures in, the next try is well within the wait.
    await until(async () => (await plat.admin.get(`${NS}/secrets/refused-token`)).json.data?.token, 'filled once the refusals stop');
  });

  it('is not started without a key, and refuses a root CA file without a certificate', async () => {
    const off = runController(plat, serviceAccountTokenController(), 'serviceaccount-token-controller');
    // The factory's answer is no controller at all (the manager's "skipping controller").
    assert.equal(off.runnable, undefined);
    assert.ok(off.logged('Controller is disabled because there is no private key', 'controller="serviceaccount-token-controller"'));
    await off.stop();
    const bad = path.join(dir, 'bad.crt');
    writeFileSync(bad, 'not a certificate\n');
    assert.throws(() => runController(plat, serviceAccountTokenController({ privateKeyFile: keyFile, rootCaFile: bad }), 'serviceaccount-token-controller'),
      { message: `error parsing root-ca-file at ${bad}: data does not contain any valid RSA or ECDSA certificates` });
  });
});
