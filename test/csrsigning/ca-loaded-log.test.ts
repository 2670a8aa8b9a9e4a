// Upstream's CA loader (DynamicCertKeyPairContent) logs `Loaded a new cert/key pair` at V(2) for
// the first pair it takes, at start-up, as for every later one: an operator at -v=2 sees which
// files each signer started with. A pair the loader refuses is not taken (no line); one it takes
// and the CA provider then refuses was taken all the same (the line, then the error).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { goQuote } from '../../core/go-quote.js';
import { CaProvider } from '../../plugins/csrsigning/index.js';
import { makeCa } from '../helpers/certs.js';
import { tempDir } from '../helpers/plat.js';
import { Logs } from './support.js';

const ca = makeCa({ commonName: 'loaded-ca' });
const other = makeCa({ commonName: 'other-ca' });

function files(cert: string, key: string): { certFile: string; keyFile: string; line: string } {
  const d = tempDir();
  const certFile = path.join(d, 'ca.crt');
  const keyFile = path.join(d, 'ca.key');
  writeFileSync(certFile, cert);
  writeFileSync(keyFile, key, { mode: 0o600 });
  return { certFile, keyFile, line: `] Loaded a new cert/key pair name=${goQuote(`csr-controller::${certFile}::${keyFile}`)}` };
}

describe('the CA loader\'s first pair', () => {
  it('is logged at V(2) at start-up, once, and not again when the watch starts on the same files', async () => {
    const f = files(ca.certificatePem, ca.privateKeyPem);
    const logs = new Logs();
    const provider = new CaProvider(f.certFile, f.keyFile, logs.logger);
    assert.equal(logs.lines.filter((l) => l.endsWith(f.line)).length, 1, logs.lines.join('\n'));
    assert.ok(logs.lines.find((l) => l.endsWith(f.line))!.startsWith('I'));
    await provider.reload();
    assert.equal(logs.lines.filter((l) => l.endsWith(f.line)).length, 1, logs.lines.join('\n'));
  });

  it('is logged when the loader takes a pair the CA provider then refuses (two certificates)', () => {
    const f = files(ca.certificatePem + other.certificatePem, ca.privateKeyPem);
    const logs = new Logs();
    assert.throws(() => new CaProvider(f.certFile, f.keyFile, logs.logger), /expected 1 certificate, found 2/);
    assert.ok(logs.lines.some((l) => l.endsWith(f.line)), logs.lines.join('\n'));
  });

  it('is not logged for a pair the loader refuses', () => {
    const f = files(ca.certificatePem, other.privateKeyPem);
    const logs = new Logs();
    assert.throws(() => new CaProvider(f.certFile, f.keyFile, logs.logger), /tls: private key does not match public key/);
    assert.ok(!logs.has('Loaded a new cert/key pair'), logs.lines.join('\n'));
  });
});
