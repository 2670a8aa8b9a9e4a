// Where `plat csr create --wait` and `plat csr wait --out-dir` (the real processes) put an issued
// certificate: <name>.crt is never written over anything that is there (refused before the
// request is sent or waited for), and only when it is the certificate of <name>.key; a wait's
// first read is inside its --timeout; --request-timeout past a Node timer's range is a timeout,
// not 1 ms; a server that never completes the TLS handshake is given up after Go's 10 s. Against
// a fake API server that answers each CSR as issued, with a certificate of its key or of another.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createCsr, generateKeyPair, issueCertificates } from '../../core/crypto/index.js';
import { makeCa } from '../helpers/certs.js';
import { tempDir } from '../helpers/plat.js';
import { runPlatAsync } from '../helpers/run-plat.js';
import { writeLoopbackKubeconfig, writeServerKubeconfig } from '../helpers/loopback-kubeconfig.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';

describe('plat csr: the certificate file', () => {
  const ca = makeCa();
  const other = generateKeyPair('ecdsa-p256');
  const otherRequest = createCsr({ subject: { commonName: 'someone-else' }, privateKey: other.keyObject });
  let server: http.Server;
  let kubeconfig = '';
  /** CSRs by name as created, with the certificate each is answered with. */
  const stored = new Map<string, { obj: Record<string, any>; cert: string }>();
  /** 'own': issued for the CSR's key; 'other': a certificate of another key; 'never': reads are not answered. */
  let issue: 'own' | 'other' | 'never' = 'own';
  const posted: string[] = [];
  const hanging: http.ServerResponse[] = [];

  const certificateFor = (requestPem: string): string => {
    const [r] = issueCertificates([requestPem], { certificatePem: ca.certificatePem, privateKey: ca.keyObject },
      { usages: ['digital signature', 'client auth'], notBefore: new Date(Date.now() - 60_000), notAfter: new Date(Date.now() + 3600_000) });
    if (!r || !('certificatePem' in r)) throw new Error('test CA did not issue');
    return r.certificatePem;
  };
  const issued = (name: string) => {
    const s = stored.get(name)!;
    return { ...s.obj, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Test' }], certificate: Buffer.from(s.cert).toString('base64') } };
  };
  /** A CSR the fake server has, created elsewhere (by kubectl, say), with its key written to `keyFile` when given. */
  const existing = (name: string, keyFile?: string) => {
    const key = generateKeyPair('ecdsa-p256');
    const requestPem = createCsr({ subject: { commonName: name }, privateKey: key.keyObject });
    if (keyFile) writeFileSync(keyFile, key.privateKeyPem, { mode: 0o600 });
    stored.set(name, { obj: { apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest', metadata: { name, uid: `uid-${name}`, resourceVersion: '1' }, spec: {} }, cert: certificateFor(requestPem) });
    return key;
  };

  before(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => { body += d.toString(); });
      req.on('end', () => {
        const send = (code: number, obj: unknown) => res.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify(obj));
        const url = new URL(req.url ?? '/', 'http://x');
        if (req.method === 'POST') {
          const obj = JSON.parse(body) as Record<string, any>;
          const name = obj.metadata.name as string;
          posted.push(name);
          const requestPem = Buffer.from(obj.spec.request as string, 'base64').toString();
          obj.metadata = { ...obj.metadata, uid: `uid-${name}`, resourceVersion: '1' };
          stored.set(name, { obj, cert: certificateFor(issue === 'other' ? otherRequest : requestPem) });
          return send(201, obj);
        }
        if (issue === 'never') { hanging.push(res); return; }
        if (url.pathname === CSRS) {
          const name = (url.searchParams.get('fieldSelector') ?? '').replace(/^metadata\.name=/, '');
          return send(200, { kind: 'CertificateSigningRequestList', apiVersion: 'certificates.platform/v1', metadata: { resourceVersion: '1' }, items: stored.has(name) ? [issued(name)] : [] });
        }
        const name = url.pathname.slice(CSRS.length + 1);
        if (stored.has(name)) return send(200, issued(name));
        return send(404, { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 404, reason: 'NotFound', message: `certificatesigningrequests.certificates.platform "${name}" not found` });
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    kubeconfig = writeLoopbackKubeconfig((server.address() as AddressInfo).port);
  });
  after(() => { for (const r of hanging) r.destroy(); server.close(); });

  const plat = (args: string[]) => runPlatAsync(['csr', ...args, '--kubeconfig', kubeconfig], { env: { PLATCONFIG: '', KUBECONFIG: '' } });
  const create = (dir: string, name: string, ...args: string[]) =>
    plat(['create', '--signer', 'example.com/x', '--name', name, '--out-dir', dir, '--wait', '--timeout', '20s', ...args]);

  it('create --wait writes the certificate of its key', async () => {
    issue = 'own';
    const dir = tempDir();
    const r = await create(dir, 'c1');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(readdirSync(dir).sort(), ['c1.crt', 'c1.key']);
    assert.equal(readFileSync(path.join(dir, 'c1.crt'), 'utf8'), stored.get('c1')!.cert);
  });

  it('create --wait refuses a certificate that is not its key\'s, and writes none', async () => {
    issue = 'other';
    const dir = tempDir();
    const r = await create(dir, 'c2');
    assert.equal(r.code, 1);
    assert.equal(r.stderr, `plat csr create: the issued certificate and the private key in ${path.join(dir, 'c2.key')} are not a pair: tls: private key does not match public key; ${path.join(dir, 'c2.crt')} was not written\n`);
    assert.deepEqual(readdirSync(dir), ['c2.key'], 'the key stays, no certificate');
  });

  it('create --wait refuses, before sending anything, a <name>.crt that is there (a file, a dangling link)', async () => {
    issue = 'own';
    const dir = tempDir();
    writeFileSync(path.join(dir, 'c3.crt'), 'in use\n');
    symlinkSync(path.join(dir, 'nowhere'), path.join(dir, 'c4.crt'));
    for (const name of ['c3', 'c4']) {
      const before = posted.length;
      const r = await create(dir, name);
      assert.equal(r.code, 1);
      assert.equal(r.stderr, `plat csr create: ${path.join(dir, `${name}.crt`)} already exists; remove it or choose another --name or --out-dir (an existing certificate is never replaced)\n`);
      assert.equal(posted.length, before, `${name}: nothing sent`);
    }
    assert.equal(readFileSync(path.join(dir, 'c3.crt'), 'utf8'), 'in use\n');
    assert.deepEqual(readdirSync(dir).sort(), ['c3.crt', 'c4.crt']);
  });

  it('wait --out-dir checks the key beside it, and writes without one', async () => {
    const dir = tempDir();
    existing('w1', path.join(dir, 'w1.key'));
    const ok = await plat(['wait', 'w1', '--out-dir', dir, '--timeout', '20s']);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(readFileSync(path.join(dir, 'w1.crt'), 'utf8'), stored.get('w1')!.cert);
    // A key of another pair beside it: refused, nothing written.
    existing('w2');
    writeFileSync(path.join(dir, 'w2.key'), other.privateKeyPem, { mode: 0o600 });
    const mismatch = await plat(['wait', 'w2', '--out-dir', dir, '--timeout', '20s']);
    assert.equal(mismatch.code, 1);
    assert.match(mismatch.stderr, /are not a pair: tls: private key does not match public key; \S+w2\.crt was not written\n$/);
    assert.ok(!existsSync(path.join(dir, 'w2.crt')));
    // No key here (the request was made elsewhere): the certificate alone.
    existing('w3');
    const alone = await plat(['wait', 'w3', '--out-dir', dir, '--timeout', '0']);
    assert.equal(alone.code, 0, alone.stderr);
    assert.ok(existsSync(path.join(dir, 'w3.crt')));
    // Once written, it stays: a second wait is refused before it reads anything.
    const again = await plat(['wait', 'w1', '--out-dir', dir]);
    assert.equal(again.code, 1);
    assert.equal(again.stderr, `plat csr wait: ${path.join(dir, 'w1.crt')} already exists; remove it or choose another --out-dir (an existing certificate is never replaced)\n`);
  });

  it('--request-timeout past a timer\'s range (1000h) is a timeout, not 1 ms', async () => {
    existing('t1');
    const r = await plat(['get', 't1', '-o', 'name', '--request-timeout', '1000h']);
    assert.deepEqual([r.code, r.stdout, r.stderr], [0, 'certificatesigningrequest.certificates.platform/t1\n', '']);
  });

  // Bounded: before the change this waited for good.
  it('wait --timeout bounds the first read too', { timeout: 60_000 }, async () => {
    issue = 'never';
    try {
      const r = await plat(['wait', 'h1', '--timeout', '1s']);
      assert.deepEqual([r.code, r.stderr], [1, 'plat csr wait: timed out after 1s waiting for certificate signing request "h1" to be issued\n']);
    } finally {
      issue = 'own';
    }
  });

  it('a server that takes the connection and never completes the handshake: Go\'s TLS handshake timeout', { timeout: 60_000 }, async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((s) => { sockets.push(s); });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    try {
      const config = writeServerKubeconfig(`https://127.0.0.1:${(silent.address() as AddressInfo).port}`);
      const r = await runPlatAsync(['csr', 'list', '--kubeconfig', config], { env: { PLATCONFIG: '', KUBECONFIG: '' } });
      assert.deepEqual([r.code, r.stderr], [1, 'plat csr list: Unable to connect to the server: net/http: TLS handshake timeout\n']);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });
});
