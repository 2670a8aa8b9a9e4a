// An --out-dir that is a regular file: `plat csr create` and `plat csr wait` say so as Go's
// os.MkdirAll does (`mkdir DIR: not a directory`). create took mkdir's EEXIST for a key file that
// already exists and retried eight generated names before blaming `DIR/csr-xxxxx.key`; wait said
// Node's `EEXIST: file already exists, mkdir '/abs/DIR'`. Against a fake API server on a
// kubeconfig's http:// loopback address, which records whether anything was sent.
import assert from 'node:assert/strict';
import { symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { tempDir } from '../helpers/plat.js';
import { runPlatAsync } from '../helpers/run-plat.js';
import { writeLoopbackKubeconfig } from '../helpers/loopback-kubeconfig.js';

const CERT_PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const issuedCsr = {
  apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest',
  metadata: { name: 'done', uid: 'u1', resourceVersion: '5' },
  spec: { request: '', signerName: 'example.com/x', usages: ['client auth'] },
  status: { conditions: [{ type: 'Approved', status: 'True', reason: 'R' }], certificate: Buffer.from(CERT_PEM).toString('base64') },
};

describe('plat csr --out-dir that is not a directory', () => {
  let server: http.Server;
  let kubeconfig = '';
  const requests: string[] = [];
  before(async () => {
    server = http.createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(issuedCsr));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    kubeconfig = writeLoopbackKubeconfig((server.address() as AddressInfo).port);
  });
  after(() => { server.close(); });

  const run = (...args: string[]) => runPlatAsync(['csr', ...args, '--kubeconfig', kubeconfig], { env: { PLATCONFIG: '', KUBECONFIG: '' } });
  const aFile = () => {
    const file = path.join(tempDir(), 'certs');
    writeFileSync(file, 'not a directory\n');
    return file;
  };

  it('create: nothing sent, the directory named, not a key file', async () => {
    const file = aFile();
    requests.length = 0;
    const generated = await run('create', '--signer', 'example.com/x', '--out-dir', file);
    assert.equal(generated.code, 1);
    assert.match(generated.stderr, new RegExp(`^plat csr create: cannot write the private key ${file}/csr-[a-z0-9]{5}\\.key \\(nothing was sent\\): mkdir ${file}: not a directory\\n$`));
    const named = await run('create', '--signer', 'example.com/x', '--name', 'k', '--out-dir', file);
    assert.deepEqual([named.code, named.stderr], [1, `plat csr create: cannot write the private key ${file}/k.key (nothing was sent): mkdir ${file}: not a directory\n`]);
    assert.deepEqual(requests, []);
  });

  it('a path through a file: MkdirAll names the file in the way, not the directory asked for', async () => {
    const file = aFile();
    requests.length = 0;
    const created = await run('create', '--signer', 'example.com/x', '--name', 'k', '--out-dir', `${file}/sub/deeper`);
    assert.deepEqual([created.code, created.stderr], [1, `plat csr create: cannot write the private key ${file}/sub/deeper/k.key (nothing was sent): mkdir ${file}: not a directory\n`]);
    assert.deepEqual(requests, []);
    const r = await run('wait', 'done', '--timeout', '0', '--out-dir', `${file}/sub`);
    assert.deepEqual([r.code, r.stderr], [1, `plat csr wait: mkdir ${file}: not a directory\n`]);
  });

  it('a symbolic link to nothing: MkdirAll\'s Mkdir of it says the file exists', async () => {
    const link = path.join(tempDir(), 'certs');
    symlinkSync(path.join(path.dirname(link), 'gone'), link);
    requests.length = 0;
    const created = await run('create', '--signer', 'example.com/x', '--name', 'k', '--out-dir', link);
    assert.deepEqual([created.code, created.stderr], [1, `plat csr create: cannot write the private key ${link}/k.key (nothing was sent): mkdir ${link}: file exists\n`]);
    assert.deepEqual(requests, []);
    const r = await run('wait', 'done', '--timeout', '0', '--out-dir', `${link}/sub`);
    assert.deepEqual([r.code, r.stderr], [1, `plat csr wait: mkdir ${link}: file exists\n`]);
  });

  it('wait: the certificate is issued, the directory cannot hold it', async () => {
    const file = aFile();
    const r = await run('wait', 'done', '--timeout', '0', '--out-dir', file);
    assert.deepEqual([r.code, r.stdout, r.stderr], [1, '', `plat csr wait: mkdir ${file}: not a directory\n`]);
    // The same directory, made: the certificate is written.
    const dir = path.join(tempDir(), 'certs');
    const ok = await run('wait', 'done', '--timeout', '0', '--out-dir', dir);
    assert.deepEqual([ok.code, ok.stderr, ok.stdout], [0, '', `certificate written to ${dir}/done.crt\n`]);
  });
});
