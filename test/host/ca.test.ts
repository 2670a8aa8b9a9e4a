// `plat ca init` and `plat ca sign` as a user runs them: certificates for CSRs of every supported
// key type, from CAs of every supported key type, verify with `openssl verify`; a CSR whose
// signature does not verify is refused with exit code 1. ca.key and ca.crt are written both or
// neither, and one without the other is named rather than taken for a CA.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { caInit } from '../../host/commands/ca.js';
import { CommandError } from '../../host/commands/command-error.js';
import { tempDir } from '../helpers/plat.js';
import { runPlat } from '../helpers/run-plat.js';

const CSR_KEYS: Record<string, string[]> = {
  rsa2048: ['-newkey', 'rsa:2048'],
  p256: ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256'],
  p384: ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-384'],
  ed25519: ['-newkey', 'ed25519'],
};

function opensslCsr(dir: string, name: string, key: string[]): string {
  const file = path.join(dir, `${name}.csr`);
  execFileSync('openssl', ['req', '-new', ...key, '-nodes', '-keyout', path.join(dir, `${name}.key`), '-subj', `/CN=${name}/O=team`,
    '-addext', `subjectAltName=DNS:${name}.example.com,IP:10.0.0.1`, '-out', file], { stdio: 'ignore' });
  return file;
}

describe('plat ca', () => {
  // One CSR of each key type, signed by every CA below: the CSRs are the input, not what is tested.
  const csrs = new Map<string, string>();
  before(() => {
    const dir = tempDir();
    for (const [csrType, key] of Object.entries(CSR_KEYS)) csrs.set(csrType, opensslCsr(dir, `leaf-${csrType}`, key));
  });

  for (const caType of ['p256', 'p384', 'ed25519', 'rsa2048']) {
    it(`a ${caType} CA issues verifiable certificates for CSRs of every key type`, () => {
      const dir = tempDir();
      const caDir = path.join(dir, 'ca');
      const init = runPlat(['ca', 'init', '--dir', caDir, '--key-type', caType, '--cn', `test-${caType}`]);
      assert.equal(init.code, 0, init.stderr);
      assert.equal(statSync(path.join(caDir, 'ca.key')).mode & 0o777, 0o600);
      // keyutil.MarshalPrivateKeyToPEM's block types (Ed25519, which it cannot write, as PKCS#8).
      const label = { p256: 'EC PRIVATE KEY', p384: 'EC PRIVATE KEY', ed25519: 'PRIVATE KEY', rsa2048: 'RSA PRIVATE KEY' }[caType];
      assert.match(readFileSync(path.join(caDir, 'ca.key'), 'utf8'), new RegExp(`^-----BEGIN ${label}-----\n`));
      for (const [csrType, csr] of csrs) {
        const out = path.join(dir, `leaf-${csrType}.crt`);
        const sign = runPlat(['ca', 'sign', '--ca-dir', caDir, '--csr', csr, '--usages', 'digital signature,server auth,client auth', '--duration', '24h', '--out', out]);
        assert.equal(sign.code, 0, sign.stderr);
        // The time printed is the certificate's, to the second.
        const printed = /valid until (\S+)\n$/.exec(sign.stdout)?.[1];
        assert.match(printed ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/, sign.stdout);
        const verify = spawnSync('openssl', ['verify', '-CAfile', path.join(caDir, 'ca.crt'), out], { encoding: 'utf8' });
        assert.equal(verify.status, 0, `${csrType} under ${caType}: ${verify.stdout}${verify.stderr}`);
        const text = execFileSync('openssl', ['x509', '-in', out, '-noout', '-text', '-nameopt', 'RFC2253'], { encoding: 'utf8' });
        // The CSR says /CN=.../O=team; the certificate has Go's order, O then CN (RFC 2253 prints it reversed).
        assert.match(text, new RegExp(`Subject: CN=leaf-${csrType},O=team\n`));
        assert.match(text, new RegExp(`DNS:leaf-${csrType}\\.example\\.com, IP Address:10\\.0\\.0\\.1`));
        assert.match(text, /TLS Web Server Authentication, TLS Web Client Authentication/);
        assert.match(text, new RegExp(`Issuer: CN=test-${caType}`));
        const start = Date.parse(/Not Before: (.*)/.exec(text)![1]!);
        const end = Date.parse(/Not After : (.*)/.exec(text)![1]!);
        // PermissiveSigningPolicy: 24h is long (8h or more), so the backdate comes off its end.
        assert.equal(end - start, 24 * 3600_000, 'the duration exactly, backdated 5 minutes');
        assert.equal(end, Date.parse(printed!));
      }
    });
  }

  it('changes nothing when ca.crt cannot be written, and names a lone ca.key', async () => {
    const dir = tempDir();
    const [certFile, keyFile] = [path.join(dir, 'ca.crt'), path.join(dir, 'ca.key')];
    mkdirSync(certFile);
    const failed = (e: unknown) => e instanceof CommandError && /^cannot write the CA \(nothing was changed\): EISDIR/.test(e.message);
    await assert.rejects(caInit(['--dir', dir, '--force']), failed);
    assert.deepEqual(readdirSync(dir), ['ca.crt']);
    // --force over a key that is kept: a failed replacement puts it back.
    writeFileSync(keyFile, 'the only copy of a key', { mode: 0o600 });
    await assert.rejects(caInit(['--dir', dir, '--force']), failed);
    assert.equal(readFileSync(keyFile, 'utf8'), 'the only copy of a key');
    assert.deepEqual(readdirSync(dir).sort(), ['ca.crt', 'ca.key']);
    unlinkSync(keyFile);
    rmdirSync(certFile);
    writeFileSync(keyFile, 'a key whose certificate is lost', { mode: 0o600 });
    await assert.rejects(caInit(['--dir', dir]), { message: `${keyFile} exists without ${certFile}; restore ${certFile}, or use --force (or remove ${keyFile}) to make a new CA` });
  });

  it('writes to standard output without --out, and refuses a CSR whose signature does not verify', () => {
    const dir = tempDir();
    const caDir = path.join(dir, 'ca');
    assert.equal(runPlat(['ca', 'init', '--dir', caDir]).code, 0);
    const csr = opensslCsr(dir, 'ok', CSR_KEYS['p256']!);
    const out = runPlat(['ca', 'sign', '--ca-dir', caDir, '--csr', csr]);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /^-----BEGIN CERTIFICATE-----\n/);
    const der = Buffer.from(readFileSync(csr, 'utf8').replace(/-----[^-]+-----|\s/g, ''), 'base64');
    der[der.length - 5]! ^= 0x01;
    const bad = path.join(dir, 'bad.csr');
    writeFileSync(bad, `-----BEGIN CERTIFICATE REQUEST-----\n${der.toString('base64').replace(/.{64}/g, '$&\n')}\n-----END CERTIFICATE REQUEST-----\n`);
    const refused = runPlat(['ca', 'sign', '--ca-dir', caDir, '--csr', bad]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /bad\.csr: x509: ECDSA verification failure/);
  });

  it('refuses to overwrite a CA, bad flags exit 2', () => {
    const dir = tempDir();
    assert.equal(runPlat(['ca', 'init', '--dir', dir]).code, 0);
    const again = runPlat(['ca', 'init', '--dir', dir]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /already holds a CA/);
    assert.equal(runPlat(['ca', 'init', '--dir', dir, '--force']).code, 0);
    const badType = runPlat(['ca', 'init', '--dir', dir, '--key-type', 'dsa']);
    assert.equal(badType.code, 2);
    assert.equal(runPlat(['ca', 'sign', '--csr', 'x']).code, 2);
    const badUsage = runPlat(['ca', 'sign', '--ca-dir', dir, '--csr', 'x', '--usages', 'digital signature,foo']);
    assert.equal(badUsage.code, 2, 'a bad flag value, before any file is read');
    assert.match(badUsage.stderr, /"--usages" flag: unrecognized usage values: \["foo"\]/);
  });
});
