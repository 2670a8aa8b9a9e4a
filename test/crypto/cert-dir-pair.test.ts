// The pair in --cert-dir (ensureSelfSignedServing): an operator's pair is served whatever it names
// and however long it has left, never overwritten (upstream's CanReadCertAndKey); one that does not
// load, or half a pair, is an error naming the files, which are left as they were. Pairs made by
// the machine's openssl.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { ensureSelfSignedServing, PkiError } from '../../core/pki/index.js';
import { openssl, tempDir, type TempDir } from '../helpers/openssl.js';

const DAY = 86_400_000;

/** An openssl-made self-signed pair (EC unless `rsa`), written as <dir>/srv.crt and srv.key. */
function operatorPair(d: TempDir, cn: string, o: { days?: number; rsa?: boolean } = {}): { cert: string; key: string } {
  openssl(['req', '-x509', '-newkey', o.rsa ? 'rsa:2048' : 'ec', ...(o.rsa ? [] : ['-pkeyopt', 'ec_paramgen_curve:P-256']), '-nodes',
    '-keyout', d.file('srv.key'), '-out', d.file('srv.crt'), '-subj', `/CN=${cn}`, '-addext', `subjectAltName=DNS:${cn}`, '-days', String(o.days ?? 1)]);
  return { cert: d.read('srv.crt'), key: d.read('srv.key') };
}

const unchanged = (d: TempDir, pair: { cert: string; key: string }) => {
  assert.equal(d.read('srv.crt'), pair.cert, 'srv.crt rewritten');
  assert.equal(d.read('srv.key'), pair.key, 'srv.key rewritten');
};

test('an operator\'s pair is served as it is: other names, a day or less left, expired, RSA', async (t) => {
  const d = tempDir();
  t.after(() => d.cleanup());
  for (const [what, o, now] of [['EC, one day', {}, undefined], ['RSA', { rsa: true }, undefined], ['expired', {}, new Date(Date.now() + 400 * DAY)]] as const) {
    const pair = operatorPair(d, 'operator.example', o);
    const got = await ensureSelfSignedServing(d.dir, { hosts: ['a.example', '10.0.0.7'], baseName: 'srv', ...(now ? { now } : {}) });
    assert.deepEqual([got.certificatePem, got.privateKeyPem, got.generated], [pair.cert, pair.key, false], what);
    assert.deepEqual(got.outcome, { made: 'kept', subject: 'CN=operator.example' }, what);
    unchanged(d, pair);
  }
});

test('an operator\'s leaf with its CA after it (the shape plat used to take for its own) is kept', async (t) => {
  const d = tempDir();
  t.after(() => d.cleanup());
  openssl(['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', d.file('ca.key'), '-out', d.file('ca.crt'), '-subj', '/CN=op-ca', '-days', '30']);
  openssl(['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', d.file('srv.key'), '-out', d.file('srv.csr'), '-subj', '/CN=127.0.0.1']);
  d.write('ext', 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  openssl(['x509', '-req', '-in', d.file('srv.csr'), '-CA', d.file('ca.crt'), '-CAkey', d.file('ca.key'), '-CAcreateserial', '-days', '30', '-extfile', d.file('ext'), '-out', d.file('leaf.crt')]);
  d.write('srv.crt', d.read('leaf.crt') + d.read('ca.crt'));
  const pair = { cert: d.read('srv.crt'), key: d.read('srv.key') };
  // A host it does not name: plat's own pair would be replaced for that.
  const got = await ensureSelfSignedServing(d.dir, { hosts: ['plat-test.example'], baseName: 'srv' });
  assert.deepEqual([got.generated, got.outcome.made], [false, 'kept']);
  unchanged(d, pair);
});

test('a pair that does not load is an error naming both files, which are left as they were', async (t) => {
  const d = tempDir();
  t.after(() => d.cleanup());
  const other = openssl(['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256']);
  for (const [what, key, reason] of [['another key', other, 'tls: private key does not match public key'], ['no PEM', 'garbage', 'tls: failed to find any PEM data in key input']] as const) {
    const pair = { ...operatorPair(d, 'operator.example'), key };
    d.write('srv.key', key);
    await assert.rejects(ensureSelfSignedServing(d.dir, { hosts: [], baseName: 'srv' }), (e: Error) => {
      assert.ok(e instanceof PkiError, what);
      assert.equal(e.message, `${d.file('srv.crt')} and ${d.file('srv.key')}: ${reason} (a pair plat did not make is never replaced: fix both files or remove them)`);
      return true;
    });
    unchanged(d, pair);
  }
});

test('half a pair is upstream\'s error naming the missing file, and nothing is written', async (t) => {
  const d = tempDir();
  t.after(() => d.cleanup());
  operatorPair(d, 'operator.example');
  const key = readFileSync(d.file('srv.key'));
  rmSync(d.file('srv.crt'));
  await assert.rejects(ensureSelfSignedServing(d.dir, { hosts: [], baseName: 'srv' }),
    { name: 'PkiError', message: `error reading ${d.file('srv.crt')}, certificate and key must be supplied as a pair` });
  assert.deepEqual(readFileSync(d.file('srv.key')), key);
  rmSync(d.file('srv.key'));
  d.write('srv.crt', 'cert');
  await assert.rejects(ensureSelfSignedServing(d.dir, { hosts: [], baseName: 'srv' }),
    { name: 'PkiError', message: `error reading ${d.file('srv.key')}, certificate and key must be supplied as a pair` });
  assert.equal(d.read('srv.crt'), 'cert');
});
