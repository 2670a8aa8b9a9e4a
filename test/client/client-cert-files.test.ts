// A kubeconfig's client-certificate / client-key FILES are followed by the clients built from it,
// as client-go follows them (ReloadTLSFiles; cert_rotation.go): a pair renamed over the files, or
// a Secret volume's `..data` symlink swapped, is presented at the next connection once the
// periodic look (injected interval) or the look before a request (after a second, on an injected
// clock) has seen it, all old connections closed (a watch ends); a half-written or mismatched pair
// is logged and not used; data in the kubeconfig is not followed. Against a real `plat all`
// (--client-ca-file is its pki CA) on 127.0.0.1, whose SelfSubjectReview names the user, and a
// token webhook on 127.0.0.1 that requires a client certificate. Waits are bounded loops.
import assert from 'node:assert/strict';
import https from 'node:https';
import { mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { loadKubeconfig } from '../../core/client/kubeconfig.js';
import { RestClient } from '../../core/client/rest-client.js';
import { TokenReviewClient } from '../../plugins/authn-webhook-token/token-review-client.js';
import { makeCa, makeClientCert, makeServingCert, type TestCredential } from '../helpers/certs.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { Logs, until } from '../csrsigning/support.js';
import { platCa } from '../controller-manager/support.js';

let plat: RunningPlat;
before(async () => { plat = await startInProcess(); });
after(async () => { await plat?.stop(); });

function writeKubeconfig(dir: string, server: string, ca: string, user: string[]): string {
  const file = path.join(dir, 'client.conf');
  writeFileSync(file, [
    'apiVersion: v1', 'kind: Config',
    'clusters:', '- name: c', '  cluster:', `    server: ${server}`, `    certificate-authority: ${ca}`,
    'users:', '- name: u', '  user:', ...user.map((l) => `    ${l}`),
    'contexts:', '- name: x', '  context: {cluster: c, user: u}', 'current-context: x', '',
  ].join('\n'));
  return file;
}

/** Writes `cred` to `<file>.new` files, then renames them over certFile and keyFile, key first. */
function renameOver(certFile: string, keyFile: string, cred: TestCredential): void {
  writeFileSync(`${keyFile}.new`, cred.privateKeyPem);
  writeFileSync(`${certFile}.new`, cred.certificatePem);
  renameSync(`${keyFile}.new`, keyFile);
  renameSync(`${certFile}.new`, certFile);
}

async function whoAmI(api: RestClient): Promise<string> {
  const r = await api.request<{ status: { userInfo: { username: string } } }>('POST', '/apis/authentication.platform/v1/selfsubjectreviews',
    { body: { apiVersion: 'authentication.platform/v1', kind: 'SelfSubjectReview' } });
  return r.status.userInfo.username;
}

/** Whether `api` presents `name` now; a request cut by the swap's closing of connections is asked again. */
async function presents(api: RestClient, name: string): Promise<boolean> {
  try {
    return await whoAmI(api) === name;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ECONNRESET') return false;
    throw e;
  }
}

const user = (cn: string) => makeClientCert(platCa(plat), cn, ['system:masters']);
const platCaFile = () => path.join(plat.dataDir, 'pki', 'ca.crt');

describe('client certificate files: the periodic look', () => {
  it('presents a pair renamed over the files at the next connection, and ends the watches of the old one', async () => {
    const dir = tempDir();
    const [certFile, keyFile] = [path.join(dir, 'tls.crt'), path.join(dir, 'tls.key')];
    const first = user('periodic-first');
    writeFileSync(certFile, first.certificatePem);
    writeFileSync(keyFile, first.privateKeyPem);
    const logs = new Logs();
    // A clock that stands still: the look before a request never runs, only the periodic one.
    const conn = loadKubeconfig(writeKubeconfig(dir, plat.url, platCaFile(), ['client-certificate: tls.crt', 'client-key: tls.key']),
      { clientCertFiles: { refreshIntervalMs: 20, now: () => 0 } });
    assert.ok(conn.clientCertFiles, 'a pair given as files is followed');
    const api = new RestClient(conn, { logger: logs.logger });
    try {
      assert.equal(await whoAmI(api), 'periodic-first');
      // A watch open over the old pair (its first event seen): the swap closes its connection, and
      // it ends as one whose connection broke, for its caller to open again.
      let events = 0;
      let watchEnded = false;
      const watching = (async () => {
        for await (const _e of api.watch({ group: '', version: 'v1', plural: 'namespaces' })) events++;
        watchEnded = true;
      })();
      await until(() => events > 0, 'the watch to be open');
      renameOver(certFile, keyFile, user('periodic-second'));
      await until(() => presents(api, 'periodic-second'), 'the new pair to be presented');
      await until(() => watchEnded, 'the watch to end');
      await watching;
      assert.ok(logs.has('certificate rotation detected, shutting down client connections to start using new credentials'), logs.lines.join('\n'));
    } finally {
      api.close();
    }
  });
});

describe('client certificate files: the look before a request', () => {
  const dir = tempDir();
  const logs = new Logs();
  let clock = 0;
  let api: RestClient;
  const [certFile, keyFile] = [path.join(dir, 'tls.crt'), path.join(dir, 'tls.key')];

  /** A Secret volume: tls.crt -> ..data/tls.crt, ..data -> ..<version>, swapped by renaming a new link over ..data. */
  function project(version: string, cred: TestCredential): void {
    mkdirSync(path.join(dir, version));
    writeFileSync(path.join(dir, version, 'tls.crt'), cred.certificatePem);
    writeFileSync(path.join(dir, version, 'tls.key'), cred.privateKeyPem);
    symlinkSync(version, path.join(dir, '..data_tmp'));
    renameSync(path.join(dir, '..data_tmp'), path.join(dir, '..data'));
  }

  before(() => {
    project('..v1', user('volume-first'));
    symlinkSync('..data/tls.crt', certFile);
    symlinkSync('..data/tls.key', keyFile);
    // No periodic look within the test: the one before a request alone.
    const conn = loadKubeconfig(writeKubeconfig(dir, plat.url, platCaFile(), [`client-certificate: ${certFile}`, `client-key: ${keyFile}`]),
      { clientCertFiles: { refreshIntervalMs: 3_600_000, now: () => clock } });
    api = new RestClient(conn, { logger: logs.logger });
  });
  after(() => api?.close());

  it('follows a ..data symlink swap once the last look is over a second old', async () => {
    assert.equal(await whoAmI(api), 'volume-first');
    project('..v2', user('volume-second'));
    // Looked at less than a second ago (client-go's cached pair): not yet.
    assert.equal(await whoAmI(api), 'volume-first');
    clock += 1_000;
    assert.equal(await whoAmI(api), 'volume-second');
  });

  it('does not use a mismatched or half-written pair, and says why', async () => {
    const next = user('volume-third');
    // The key written in place before its certificate: no pair yet.
    writeFileSync(path.join(dir, '..v2', 'tls.key'), next.privateKeyPem);
    clock += 1_000;
    assert.equal(await whoAmI(api), 'volume-second');
    assert.ok(logs.has('key failed with : tls: private key does not match public key'), logs.lines.join('\n'));
    // Half of the certificate written.
    writeFileSync(path.join(dir, '..v2', 'tls.crt'), next.certificatePem.slice(0, next.certificatePem.length / 2));
    clock += 1_000;
    assert.equal(await whoAmI(api), 'volume-second');
    assert.equal(logs.count('key failed with : '), 2, logs.lines.join('\n'));
    writeFileSync(path.join(dir, '..v2', 'tls.crt'), next.certificatePem);
    clock += 1_000;
    assert.equal(await whoAmI(api), 'volume-third');
  });
});

describe('client certificate files: what is not followed', () => {
  it('certificate data in the kubeconfig, or a pair given half as data', () => {
    const dir = tempDir();
    const cred = user('data');
    writeFileSync(path.join(dir, 'tls.crt'), cred.certificatePem);
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    const data = loadKubeconfig(writeKubeconfig(dir, plat.url, platCaFile(),
      [`client-certificate-data: ${b64(cred.certificatePem)}`, `client-key-data: ${b64(cred.privateKeyPem)}`]));
    assert.equal(data.clientCertFiles, undefined);
    const half = loadKubeconfig(writeKubeconfig(dir, plat.url, platCaFile(), ['client-certificate: tls.crt', `client-key-data: ${b64(cred.privateKeyPem)}`]));
    assert.equal(half.clientCertFiles, undefined);
  });
});

describe('client certificate files: a token webhook', () => {
  const ca = makeCa();
  let server: https.Server;
  let url: string;
  before(async () => {
    const serving = makeServingCert(ca, [], ['127.0.0.1']);
    // Authenticates every token as the client certificate's common name: who called.
    server = https.createServer({ cert: serving.certificatePem, key: serving.privateKeyPem, ca: ca.certificatePem, requestCert: true, rejectUnauthorized: true },
      (req, res) => {
        const cn = (req.socket as TLSSocket).getPeerCertificate().subject.CN;
        req.resume();
        req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
          apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', status: { authenticated: true, user: { username: cn } },
        })));
      });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/authenticate`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  it('presents a pair renamed over the files at the next connection', async () => {
    const dir = tempDir();
    const [certFile, keyFile] = [path.join(dir, 'tls.crt'), path.join(dir, 'tls.key')];
    const first = makeClientCert(ca, 'apiserver-first');
    writeFileSync(certFile, first.certificatePem);
    writeFileSync(keyFile, first.privateKeyPem);
    writeFileSync(path.join(dir, 'ca.crt'), ca.certificatePem);
    const client = new TokenReviewClient({
      connection: loadKubeconfig(writeKubeconfig(dir, url, 'ca.crt', ['client-certificate: tls.crt', 'client-key: tls.key']),
        { clientCertFiles: { refreshIntervalMs: 20, now: () => 0 } }),
      version: 'v1', logger: new Logs().logger,
    });
    const caller = async () => {
      const r = await client.review('token');
      return r.authenticated ? r.user.name : '';
    };
    try {
      assert.equal(await caller(), 'apiserver-first');
      renameOver(certFile, keyFile, makeClientCert(ca, 'apiserver-second'));
      // A call in flight when the pair is swapped is cut with its connection (Go's EOF): called again.
      await until(async () => await caller().catch((e: Error) => (/: EOF$/.test(e.message) ? '' : Promise.reject(e))) === 'apiserver-second',
        'the webhook to see the new pair');
    } finally {
      client.close();
    }
  });
});
