// `plat csr create` (the real process) writes the private key before it sends the request, so no
// outcome of the request loses it: a refusal removes the key again (the CSR does not exist); a
// generated name someone already has is replaced by another; no answer, or a server error such
// as the API server's 504, keeps the key and says the request may have been stored. Against a
// fake API server on a kubeconfig's http:// loopback address that answers as each case needs.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeCa, makeServingCert } from '../helpers/certs.js';
import { tempDir } from '../helpers/plat.js';
import { runPlatAsync } from '../helpers/run-plat.js';
import { writeLoopbackKubeconfig, writeServerKubeconfig } from '../helpers/loopback-kubeconfig.js';

type Answer = { status: number; body?: unknown } | 'never';

const status = (code: number, reason: string, message: string) => ({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason, message });

describe('plat csr create when the request fails', () => {
  let server: http.Server;
  let kubeconfig = '';
  /** What the next POSTs get, in order; the names they carried. */
  let answers: Answer[] = [];
  const posted: string[] = [];
  const hanging: http.ServerResponse[] = [];
  before(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => { body += d.toString(); });
      req.on('end', () => {
        const obj = JSON.parse(body) as { metadata: { name: string } };
        posted.push(obj.metadata.name);
        const answer = answers.shift() ?? { status: 201, body: { ...obj, metadata: { ...obj.metadata, uid: 'u' } } };
        if (answer === 'never') { hanging.push(res); return; }
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body ?? { ...obj, metadata: { ...obj.metadata, uid: 'u' } }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      kubeconfig = writeLoopbackKubeconfig((server.address() as AddressInfo).port);
  });
  after(() => { for (const r of hanging) r.destroy(); server.close(); });

  const create = (dir: string, ...args: string[]) =>
    runPlatAsync(['csr', 'create', '--signer', 'example.com/x', '--out-dir', dir, '--kubeconfig', kubeconfig, ...args], { env: { PLATCONFIG: '', KUBECONFIG: '' } });

  it('a refusal removes the key: the CSR does not exist', async () => {
    const dir = tempDir();
    answers = [{ status: 403, body: status(403, 'Forbidden', 'certificatesigningrequests.certificates.platform "r1" is forbidden: no') }];
    const r = await create(dir, '--name', 'r1');
    assert.deepEqual([r.code, r.stderr], [1, 'plat csr create: Error from server (Forbidden): certificatesigningrequests.certificates.platform "r1" is forbidden: no\n']);
    assert.deepEqual(readdirSync(dir), []);
  });

  it('a generated name the server already has: another name, the first key removed', async () => {
    const dir = tempDir();
    posted.length = 0;
    answers = [{ status: 409, body: status(409, 'AlreadyExists', 'certificatesigningrequests.certificates.platform "x" already exists') }];
    const r = await create(dir);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(posted.length, 2);
    assert.notEqual(posted[0], posted[1]);
    for (const name of posted) assert.match(name, /^csr-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    assert.deepEqual(readdirSync(dir), [`${posted[1]}.key`]);
    assert.match(r.stdout, new RegExp(`^certificatesigningrequest\\.certificates\\.platform/${posted[1]} created\\n`));
    // A name given on the command line is not changed: its clash is the answer.
    answers = [{ status: 409, body: status(409, 'AlreadyExists', 'certificatesigningrequests.certificates.platform "taken" already exists') }];
    const given = await create(dir, '--name', 'taken');
    assert.deepEqual([given.code, given.stderr], [1, 'plat csr create: Error from server (AlreadyExists): certificatesigningrequests.certificates.platform "taken" already exists\n']);
    assert.ok(!existsSync(path.join(dir, 'taken.key')));
  });

  // Nothing was written: the CSR cannot exist, so its key goes and the same command can run again.
  it('a request never sent (connection refused, a server certificate not trusted) removes the key', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const ca = makeCa();
    const serving = makeServingCert(ca, ['localhost'], ['127.0.0.1']);
    const untrusted = https.createServer({ cert: serving.certificatePem, key: serving.privateKeyPem }, (_req, res) => res.end());
    await new Promise<void>((r) => untrusted.listen(0, '127.0.0.1', () => r()));
    const untrustedPort = (untrusted.address() as AddressInfo).port;
    try {
      const rows: [string, string, RegExp][] = [
        ['refused', writeLoopbackKubeconfig(closedPort), /^plat csr create: The connection to the server 127\.0\.0\.1:\d+ was refused - did you specify the right host or port\?\n$/],
        ['untrusted', writeServerKubeconfig(`https://127.0.0.1:${untrustedPort}`),
          /^plat csr create: Unable to connect to the server: tls: failed to verify certificate: x509: certificate signed by unknown authority\n$/],
      ];
      for (const [name, config, stderr] of rows) {
        const dir = tempDir();
        for (let run = 0; run < 2; run++) {
          const r = await runPlatAsync(['csr', 'create', '--signer', 'example.com/x', '--out-dir', dir, '--kubeconfig', config, '--name', name],
            { env: { PLATCONFIG: '', KUBECONFIG: '' } });
          assert.equal(r.code, 1, `${name}: ${r.stderr}`);
          assert.match(r.stderr, stderr, name);
          assert.deepEqual(readdirSync(dir), [], `${name}: no key left behind`);
        }
      }
    } finally {
      await new Promise<void>((r) => untrusted.close(() => r()));
    }
  });

  it('a server error (the API server\'s 504) keeps the key and says the request may be stored', async () => {
    const dir = tempDir();
    answers = [{ status: 504, body: status(504, 'Timeout', 'Timeout: request did not complete within the allotted timeout') }];
    const r = await create(dir, '--name', 't1');
    assert.equal(r.code, 1);
    const keyFile = path.join(dir, 't1.key');
    assert.equal(r.stderr, `plat csr create: Error from server (Timeout): Timeout: request did not complete within the allotted timeout; the request may have reached the server (\`plat csr get t1\` tells): its private key is kept in ${keyFile}\n`);
    assert.equal(statSync(keyFile).mode & 0o777, 0o600);
  });

  it('no answer within --request-timeout keeps the key too; without it, plat csr waits as kubectl does', async () => {
    const dir = tempDir();
    answers = ['never'];
    const r = await create(dir, '--name', 'h1', '--request-timeout', '1s');
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^plat csr create: Unable to connect to the server: context deadline exceeded; the request may have reached the server \(`plat csr get h1` tells\): its private key is kept in \S+h1\.key\n$/);
    assert.ok(existsSync(path.join(dir, 'h1.key')));
    for (const bad of ['soon', '-5']) {
      const refused = await create(dir, '--name', 'h2', '--request-timeout', bad);
      assert.equal(refused.code, 2, refused.stderr);
      assert.match(refused.stderr, /Invalid timeout value\. Timeout must be a single integer in seconds, or an integer followed by a corresponding time unit \(e\.g\. 1s \| 2m \| 3h\)/);
    }
    assert.ok(!existsSync(path.join(dir, 'h2.key')));
  });
});
