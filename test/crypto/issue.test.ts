// Issuing through the facade (the WASM pipeline): certificates for random CSRs of every key type
// from CAs of every key type verify under their CA (node's X509Certificate for all, openssl verify
// for a sample) and carry exactly the subject, SANs, usages and validity asked for.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { generateKeyPairSync, X509Certificate, type KeyObject } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createCertificate, createCsr, CryptoError, issueCertificate, parseCsr } from '../../core/crypto/index.js';
import { opensslCertText } from '../helpers/openssl.js';
import { tempDir } from '../helpers/plat.js';

const keyOf = (type: string): KeyObject => {
  if (type === 'ed25519') return generateKeyPairSync('ed25519').privateKey;
  if (type === 'rsa') return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  return generateKeyPairSync('ec', { namedCurve: type }).privateKey;
};

describe('issueCertificate', () => {
  const now = Date.UTC(2026, 10, 22, 12, 0, 0);
  const cas = ['P-256', 'P-384', 'ed25519', 'rsa'].map((type) => {
    const key = keyOf(type);
    const { certificatePem } = createCertificate({
      template: { subject: { commonName: `ca-${type}` }, notBefore: new Date(now - 3600_000), notAfter: new Date(now + 86_400_000 * 365), isCA: true, keyUsage: ['cert sign', 'crl sign', 'digital signature'] },
      publicKey: key, signer: key,
    });
    return { type, key, certificatePem, x509: new X509Certificate(certificatePem) };
  });
  const leafKeys = ['P-256', 'P-384', 'P-521', 'ed25519'].map(keyOf).concat(keyOf('rsa'));
  const usageSets = [
    { usages: ['digital signature', 'key encipherment', 'client auth'], ku: ['Digital Signature', 'Key Encipherment'], eku: ['TLS Web Client Authentication'] },
    { usages: ['digital signature', 'server auth'], ku: ['Digital Signature'], eku: ['TLS Web Server Authentication'] },
    { usages: ['digital signature', 'server auth', 'client auth'], ku: ['Digital Signature'], eku: ['TLS Web Server Authentication', 'TLS Web Client Authentication'] },
  ];

  it('200 certificates verify under their CA with the asked-for fields; a sample passes openssl verify', () => {
    const dir = tempDir('plat-issue-');
    let checkedWithOpenssl = 0;
    for (let i = 0; i < 200; i++) {
      const ca = cas[i % cas.length]!;
      const leafKey = leafKeys[i % leafKeys.length]!;
      const set = usageSets[i % usageSets.length]!;
      const csrPem = createCsr({
        subject: { commonName: `system:node:node-${i}`, organizations: ['system:nodes'] },
        dnsNames: [`node-${i}.example`], ipAddresses: [`10.0.${i % 256}.1`], privateKey: leafKey,
      });
      const notBefore = new Date(now - 300_000);
      const notAfter = new Date(now + (600 + i) * 1000);
      const out = issueCertificate(csrPem, { certificatePem: ca.certificatePem, privateKey: ca.key }, { usages: set.usages, notBefore, notAfter });
      assert.equal(out.backend.parse, 'wasm');
      assert.equal(out.backend.build, 'wasm');
      const cert = new X509Certificate(out.certificatePem);
      assert.ok(cert.verify(ca.x509.publicKey), `case ${i}: signature under ${ca.type}`);
      assert.ok(cert.checkIssued(ca.x509), `case ${i}: issued by ${ca.type}`);
      assert.equal(cert.subject, `O=system:nodes\nCN=system:node:node-${i}`);
      assert.equal(cert.subjectAltName, `DNS:node-${i}.example, IP Address:10.0.${i % 256}.1`);
      assert.equal(Date.parse(cert.validFrom), notBefore.getTime());
      assert.equal(Date.parse(cert.validTo), notAfter.getTime());
      assert.equal(cert.ca, false);
      assert.equal(cert.publicKey.export({ type: 'spki', format: 'der' }).toString('hex'),
        Buffer.from(parseCsr(csrPem).publicKey.spki).toString('hex'));
      if (i % 20 === 0) {
        const caFile = path.join(dir, `ca-${i}.pem`);
        const leafFile = path.join(dir, `leaf-${i}.pem`);
        writeFileSync(caFile, ca.certificatePem);
        writeFileSync(leafFile, out.certificatePem);
        const verify = spawnSync('openssl', ['verify', '-attime', String(now / 1000), '-CAfile', caFile, leafFile], { encoding: 'utf8' });
        assert.equal(verify.status, 0, verify.stdout + verify.stderr);
        const text = execFileSync('openssl', ['x509', '-in', leafFile, '-noout', '-text'], { encoding: 'utf8' });
        assert.match(text, new RegExp(`Key Usage: critical\\n\\s+${set.ku.join(', ')}\\n`));
        assert.match(text, new RegExp(`Extended Key Usage: \\n\\s+${set.eku.join(', ')}\\n`));
        // Go writes no SKI on a leaf; the AKI is the CA's SKI (createCertificate gives its CAs one).
        assert.doesNotMatch(text, /X509v3 Subject Key Identifier/);
        const caSki = /X509v3 Subject Key Identifier: *\n\s*([0-9A-F:]+)\n/.exec(opensslCertText(ca.certificatePem))![1]!;
        assert.match(text, new RegExp(`X509v3 Authority Key Identifier: *\\n\\s*(keyid:)?${caSki}\\n`));
        checkedWithOpenssl++;
      }
    }
    assert.equal(checkedWithOpenssl, 10);
  });

  it('refuses a CSR whose signature does not verify, and unknown usages', () => {
    const ca = cas[0]!;
    const csr = parseCsr(createCsr({ subject: { commonName: 'x' }, privateKey: leafKeys[0]! }));
    const der = new Uint8Array(csr.der);
    der[der.length - 3]! ^= 0x40;
    const tampered = `-----BEGIN CERTIFICATE REQUEST-----\n${Buffer.from(der).toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`;
    assert.throws(() => issueCertificate(tampered, { certificatePem: ca.certificatePem, privateKey: ca.key },
      { usages: ['client auth'], notBefore: new Date(now), notAfter: new Date(now + 3600_000) }), (e) => e instanceof CryptoError);
    assert.throws(() => issueCertificate(csr, { certificatePem: ca.certificatePem, privateKey: ca.key },
      { usages: ['bogus'], notBefore: new Date(now), notAfter: new Date(now + 3600_000) }), /unrecognized usage values/);
    assert.throws(() => issueCertificate(csr, { certificatePem: ca.certificatePem, privateKey: cas[1]!.key },
      { usages: ['client auth'], notBefore: new Date(now), notAfter: new Date(now + 3600_000) }), /doesn't match parent's PublicKey/);
  });
});

describe('sign', () => {
  it('signs with every CA key type, verifiably, and names its backend', async () => {
    const { sign, DEFAULT_BACKENDS } = await import('../../core/crypto/index.js');
    const { verify } = await import('node:crypto');
    const data = new Uint8Array(Buffer.from('tbs bytes'));
    for (const [type, hash] of [['P-256', 'sha256'], ['P-384', 'sha384'], ['ed25519', null], ['rsa', 'sha256']] as const) {
      const key = keyOf(type);
      const out = sign(key, data);
      assert.ok(verify(hash, data, key, out.signature), `${type} signature verifies`);
      const wasmDefault = (type === 'P-256' && DEFAULT_BACKENDS.signP256 === 'wasm') || (type === 'ed25519' && DEFAULT_BACKENDS.signEd25519 === 'wasm');
      assert.equal(out.backend, wasmDefault ? 'wasm' : 'node:crypto');
    }
  });
});
