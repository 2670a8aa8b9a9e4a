// The certificate store and a regular file where its links belong (client-go's fileStore
// updateSymlink and recover): the file is an operator's, so the update (or the start's recovery)
// fails with upstream's text and the file is left as it was, never unlinked.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { lstatSync, readFileSync, readlinkSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { FileStore, keyToPem } from '../../../core/client/certificate/store.js';
import { createCertificate } from '../../../core/crypto/index.js';
import { tempDir } from '../../helpers/plat.js';

function pair() {
  const key = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
  const now = Date.now();
  const { certificatePem } = createCertificate({
    template: { subject: { commonName: 'system:node:a', organizations: ['system:nodes'] }, notBefore: new Date(now - 60_000), notAfter: new Date(now + 3_600_000) },
    publicKey: key, signer: key,
  });
  return { cert: certificatePem, key: keyToPem(key) };
}

const OPERATOR = 'the operator\'s own file\n';

describe('certificate store and regular files at its link names', () => {
  const cases: { name: string; file: 'current' | 'updated'; currentLink: boolean; call: 'update' | 'current' }[] = [
    { name: 'a file at -current.pem: the update fails', file: 'current', currentLink: false, call: 'update' },
    { name: 'a file at -updated.pem beside a -current link: the update fails', file: 'updated', currentLink: true, call: 'update' },
    { name: 'a file at -updated.pem and no -current: recovery fails', file: 'updated', currentLink: false, call: 'current' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const dir = tempDir('plat-store-foreign-');
      const store = new FileStore({ dir, prefix: 'nodeagent-client' });
      if (c.currentLink) { const first = pair(); store.update(first.cert, first.key, new Date(2026, 0, 1, 0, 0, 0)); }
      const foreign = path.join(dir, `nodeagent-client-${c.file}.pem`);
      writeFileSync(foreign, OPERATOR);
      const p = pair();
      const expected = `expected "${foreign}" to be a symlink but it is a file`;
      if (c.call === 'update') assert.throws(() => store.update(p.cert, p.key, new Date(2026, 0, 1, 0, 0, 1)), { message: expected });
      else assert.throws(() => store.current(), { message: expected });
      assert.ok(lstatSync(foreign).isFile());
      assert.equal(readFileSync(foreign, 'utf8'), OPERATOR, 'the file is untouched');
    });
  }

  it('a dangling -current link is replaced by an interrupted swap\'s -updated link (os.Stat: a dangling link is missing)', () => {
    const dir = tempDir('plat-store-foreign-');
    const store = new FileStore({ dir, prefix: 'nodeagent-client' });
    const p = pair();
    const first = store.update(p.cert, p.key, new Date(2026, 0, 1, 0, 0, 0));
    const current = path.join(dir, 'nodeagent-client-current.pem');
    const dated = readlinkSync(current);
    unlinkSync(current);
    symlinkSync(path.join(dir, 'gone.pem'), current);
    symlinkSync(dated, path.join(dir, 'nodeagent-client-updated.pem'));
    assert.equal(store.current().leaf.serialNumber, first.leaf.serialNumber);
    assert.equal(readlinkSync(current), dated);
  });
});
