// writeFileAtomic stages the data in a hidden temp file beside the target, named after it. For a
// target name close to NAME_MAX (255 bytes) that temp name (`.<name>.<pid>.<random>.tmp`) was too
// long although the target's own was not: `plat csr create --name <240 characters>` failed with
// ENAMETOOLONG on `<name>.key`, naming the temp file. A long name is hashed in the temp name now.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, it } from 'node:test';
import { writeFileAtomic, writeFileAtomicSync, writeFilesAtomic } from '../../core/pki/index.js';
import { tempDir } from '../helpers/plat.js';
import { runPlatAsync } from '../helpers/run-plat.js';
import { writeLoopbackKubeconfig } from '../helpers/loopback-kubeconfig.js';

describe('writeFileAtomic with a name close to NAME_MAX', () => {
  const long = (c: string, n: number) => `${c.repeat(n)}.key`;

  it('every writer takes a 250-byte name (and a multi-byte one), leaving no temp file behind', async () => {
    const dir = tempDir();
    await writeFileAtomic(path.join(dir, long('a', 246)), 'a', 0o600, { exclusive: true });
    await writeFileAtomic(path.join(dir, long('b', 246)), 'b', 0o644);
    writeFileAtomicSync(path.join(dir, long('c', 246)), 'c', 0o644);
    await writeFilesAtomic([{ file: path.join(dir, long('d', 246)), data: 'd', mode: 0o644 }]);
    await writeFileAtomic(path.join(dir, long('é', 123)), 'e', 0o600, { exclusive: true });
    assert.deepEqual(readdirSync(dir).sort(), [long('a', 246), long('b', 246), long('c', 246), long('d', 246), long('é', 123)].sort());
    assert.equal(readFileSync(path.join(dir, long('a', 246)), 'utf8'), 'a');
    assert.equal(statSync(path.join(dir, long('a', 246))).mode & 0o777, 0o600);
  });

  it('plat csr create --name of 240 characters writes <name>.key', async () => {
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => { body += d.toString(); });
      req.on('end', () => {
        const obj = JSON.parse(body) as { metadata: object };
        res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ ...obj, metadata: { ...obj.metadata, uid: 'u' } }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    try {
      const dir = tempDir();
      const name = 'n'.repeat(240);
      const kubeconfig = writeLoopbackKubeconfig((server.address() as AddressInfo).port);
      const r = await runPlatAsync(['csr', 'create', '--signer', 'example.com/x', '--name', name, '--out-dir', dir, '--kubeconfig', kubeconfig], { env: { PLATCONFIG: '', KUBECONFIG: '' } });
      assert.deepEqual([r.code, r.stderr], [0, '']);
      assert.deepEqual(readdirSync(dir), [`${name}.key`]);
    } finally {
      server.close();
    }
  });
});
