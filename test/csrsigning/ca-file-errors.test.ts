// CA files that are not a usable pair, with upstream's words for each: its loader's checks come
// first (os.ReadFile of the cert file, then the key file; neither empty; Go 1.23's
// tls.X509KeyPair), wrapped by newCAProvider when the controller is built (once leading) as `error reading CA cert file "<cert>"`
// whichever file is at fault, and logged on a reload by the loader's queue as
// `key failed with : <error>`. What the loader takes and the CA provider then refuses is reported
// naming the file (plat's documented deviation), at the build and on reload alike.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { goQuote } from '../../core/go-quote.js';
import { CaProvider } from '../../plugins/csrsigning/index.js';
import { makeCa } from '../helpers/certs.js';
import { openssl, opensslCsr, opensslKey } from '../helpers/openssl.js';
import { tempDir } from '../helpers/plat.js';
import { clusterCaRefusal, Logs } from './support.js';

const dir = tempDir();
const ca = makeCa({ commonName: 'errors-ca' });
const other = makeCa({ commonName: 'other-ca' });
const rsa = makeCa({ commonName: 'rsa-ca', keyType: 'rsa-2048' });
const ed448Key = opensslKey('ed448');
const p224Key = openssl(['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-224', '-pkeyopt', 'ec_param_enc:named_curve']);
const file = (name: string, content: string) => {
  const p = path.join(dir, name);
  writeFileSync(p, content, { mode: 0o600 });
  return p;
};
const GOOD_CERT = file('good.crt', ca.certificatePem);
const GOOD_KEY = file('good.key', ca.privateKeyPem);
const MISSING = path.join(dir, 'nope.key');

/** `keyFault`: a provider check that names the key file (plat's wording for what it refuses after the loader). */
interface Case { name: string; cert: string; key: string; error: string; loader: boolean; keyFault?: boolean }
const loader = (name: string, cert: string, key: string, error: string): Case => ({ name, cert, key, error, loader: true });

const cases: Case[] = [
  loader('swapped cert and key files', GOOD_KEY, GOOD_CERT,
    'tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched'),
  loader('a cert file without PEM', file('garbage.crt', 'not a certificate\n'), GOOD_KEY, 'tls: failed to find any PEM data in certificate input'),
  loader('a key file without PEM', GOOD_CERT, file('garbage.key', 'not a key\n'), 'tls: failed to find any PEM data in key input'),
  loader('a certificate request for the certificate', file('csr.crt', opensslCsr({ subject: '/CN=x' }).csrPem), GOOD_KEY,
    'tls: failed to find "CERTIFICATE" PEM block in certificate input after skipping PEM blocks of the following types: [CERTIFICATE REQUEST]'),
  loader('the certificate for the key', GOOD_CERT, GOOD_CERT, 'tls: found a certificate rather than a key in the PEM for the private key'),
  loader('a public key for the key', GOOD_CERT, file('public.key', ca.certificatePem + openssl(['pkey', '-pubout'], { input: ca.privateKeyPem })),
    'tls: failed to find PEM block with type ending in "PRIVATE KEY" in key input after skipping PEM blocks of the following types: [CERTIFICATE PUBLIC KEY]'),
  loader('a certificate that does not parse', file('bad-der.crt', '-----BEGIN CERTIFICATE-----\nMAMCAQA=\n-----END CERTIFICATE-----\n'), GOOD_KEY,
    'x509: malformed tbs certificate'),
  loader('another CA\'s key', GOOD_CERT, file('other.key', other.privateKeyPem), 'tls: private key does not match public key'),
  loader('an RSA key for an ECDSA certificate', GOOD_CERT, file('rsa.key', rsa.privateKeyPem), 'tls: private key type does not match public key type'),
  loader('an encrypted key', GOOD_CERT, file('encrypted.key', openssl(['pkcs8', '-topk8', '-passout', 'pass:secret'], { input: ca.privateKeyPem })),
    'tls: failed to parse private key'),
  loader('an Ed448 key', GOOD_CERT, file('ed448.key', ed448Key), 'tls: failed to parse private key'),
  loader('an X25519 key', GOOD_CERT, file('x25519.key', openssl(['genpkey', '-algorithm', 'X25519'])), 'tls: found unknown private key type in PKCS#8 wrapping'),
  loader('an Ed448 certificate with an ECDSA key', file('ed448.crt', selfSigned(ed448Key)), GOOD_KEY, 'tls: unknown public key algorithm'),
  loader('an empty key file', GOOD_CERT, file('empty.key', ''), `missing content for serving cert ${goQuote(`csr-controller::${GOOD_CERT}::${path.join(dir, 'empty.key')}`)}`),
  loader('a missing key file', GOOD_CERT, MISSING, `open ${MISSING}: no such file or directory`),
  loader('a directory for the key file', GOOD_CERT, dir, `read ${dir}: is a directory`),
  loader('a P-224 certificate with another key', file('p224.crt', selfSigned(p224Key)), GOOD_KEY, 'tls: private key does not match public key'),
  // X509KeyPair takes a P-224 pair (Go signs with it); plat's CA provider refuses the key afterwards.
  { name: 'a P-224 CA (X509KeyPair takes it, plat refuses the curve)', cert: file('p224-ca.crt', selfSigned(p224Key)), key: file('p224.key', p224Key),
    error: 'data does not contain a valid RSA or ECDSA private key', loader: false, keyFault: true },
  { name: 'a certificate whose only block has headers (X509KeyPair takes it, ParseCertsPEM skips it)',
    cert: file('headers.crt', ca.certificatePem.replace('-----BEGIN CERTIFICATE-----\n', '-----BEGIN CERTIFICATE-----\nComment: x\n\n')), key: GOOD_KEY,
    error: 'data does not contain any valid RSA or ECDSA certificates', loader: false },
];
// The loader's errors name the cert file whichever file is at fault, the CA provider's the loader, as upstream.
const faulted = (c: Case, cert: string, key: string) => {
  const named = goQuote(c.loader === false ? `csr-controller::${cert}::${key}` : cert);
  return c.keyFault ? `error reading CA key file ${named}` : `error reading CA cert file ${named}`;
};
const startupMessage = (c: Case) => `failed to start platform/nodeagent-serving certificate controller: ${faulted(c, c.cert, c.key)}: ${c.error}`;

describe('unusable CA files: upstream\'s messages', () => {
  for (const c of cases) {
    it(`when the controller is built: ${c.name}`, async () => {
      const error = await clusterCaRefusal(['--cluster-signing-cert-file', c.cert, '--cluster-signing-key-file', c.key]);
      assert.equal(error.message, startupMessage(c));
    });
  }

  for (const c of cases) {
    it(`on reload: ${c.name}`, async () => {
      const d = tempDir();
      const certFile = path.join(d, 'ca.crt');
      const keyFile = path.join(d, 'ca.key');
      writeFileSync(certFile, ca.certificatePem);
      writeFileSync(keyFile, ca.privateKeyPem, { mode: 0o600 });
      const logs = new Logs();
      const provider = new CaProvider(certFile, keyFile, logs.logger);
      // The provider's files become the case's.
      for (const [from, to] of [[c.cert, certFile], [c.key, keyFile]] as const) {
        rmSync(to, { recursive: true, force: true });
        if (!existsSync(from)) continue;
        if (statSync(from).isDirectory()) mkdirSync(to);
        else copyFileSync(from, to);
      }
      await provider.reload();
      const expected = c.loader
        ? `] Unhandled Error err=${goQuote(`key failed with : ${retarget(c.error, c, certFile, keyFile)}`)}`
        : `] the CA files changed but cannot be used; still signing with the previous CA error=${goQuote(`${faulted(c, certFile, keyFile)}: ${c.error}`)}`;
      assert.ok(logs.lines.some((l) => l.endsWith(expected)), `${expected}\n${logs.lines.join('\n')}`);
      assert.equal(provider.current().certBytes.toString(), ca.certificatePem, 'the previous CA stays');
    });
  }
});

// Go's os.ReadFile says every errno as *os.PathError does (`open <file>: <errno text>`), not only
// the common three: a path through a regular file, a symlink loop.
describe('unreadable CA files: Go\'s words for every errno', () => {
  const d = tempDir();
  const loop = path.join(d, 'loop.key');
  symlinkSync(loop, loop);
  const throughFile = path.join(GOOD_CERT, 'ca.key');

  for (const [name, keyFile, reason] of [
    ['a key path through a regular file', throughFile, 'not a directory'],
    ['a key file that is a symlink loop', loop, 'too many levels of symbolic links'],
  ] as const) {
    it(`when the controller is built: ${name}`, async () => {
      const e = await clusterCaRefusal(['--cluster-signing-cert-file', GOOD_CERT, '--cluster-signing-key-file', keyFile]);
      assert.equal(e.message, `failed to start platform/nodeagent-serving certificate controller: error reading CA cert file ${goQuote(GOOD_CERT)}: open ${keyFile}: ${reason}`);
    });
  }

  it('on reload: a key file replaced by a symlink loop', async () => {
    const r = tempDir();
    const certFile = path.join(r, 'ca.crt');
    const keyFile = path.join(r, 'ca.key');
    writeFileSync(certFile, ca.certificatePem);
    writeFileSync(keyFile, ca.privateKeyPem, { mode: 0o600 });
    const logs = new Logs();
    const provider = new CaProvider(certFile, keyFile, logs.logger);
    rmSync(keyFile);
    symlinkSync(keyFile, keyFile);
    await provider.reload();
    const expected = `] Unhandled Error err=${goQuote(`key failed with : open ${keyFile}: too many levels of symbolic links`)}`;
    assert.ok(logs.lines.some((l) => l.endsWith(expected)), `${expected}\n${logs.lines.join('\n')}`);
    assert.equal(provider.current().certBytes.toString(), ca.certificatePem, 'the previous CA stays');
  });
});

/** The case's error with its file names replaced by the provider's own. */
function retarget(error: string, c: Case, certFile: string, keyFile: string): string {
  return error.split(c.cert).join(certFile).split(c.key).join(keyFile);
}

/** A self-signed certificate of `keyPem`. */
function selfSigned(keyPem: string): string {
  const d = tempDir();
  const keyFile = path.join(d, 'key.pem');
  const config = path.join(d, 'empty.cnf');
  writeFileSync(keyFile, keyPem);
  writeFileSync(config, '[req]\ndistinguished_name=dn\n[dn]\n');
  return openssl(['req', '-x509', '-new', '-key', keyFile, '-subj', '/CN=ed448-ca', '-days', '30', '-config', config]);
}
