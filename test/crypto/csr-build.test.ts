// createCsr checked by `openssl req -verify` / `-text` and read back through parseCsr.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createCsr, generateKeyPair, parseCsr, verifyCsr, type KeyType } from '../../core/crypto/index.js';
import { openssl, opensslBytes, opensslReqText, opensslReqVerifies } from '../helpers/openssl.js';

const keyTypes: { keyType: KeyType; sig: string }[] = [
  { keyType: 'ecdsa-p256', sig: 'ecdsa-with-SHA256' },
  { keyType: 'ecdsa-p384', sig: 'ecdsa-with-SHA384' },
  { keyType: 'rsa-2048', sig: 'sha256WithRSAEncryption' },
  { keyType: 'ed25519', sig: 'Ed25519' },
];

for (const k of keyTypes) {
  test(`createCsr with a ${k.keyType} key: openssl accepts it, parseCsr reads it back`, () => {
    const key = generateKeyPair(k.keyType);
    const pem = createCsr({
      subject: { commonName: 'system:node:n1', organizations: ['system:nodes', 'b'] },
      dnsNames: ['n1.example'],
      ipAddresses: ['192.0.2.1', 'fe80::1'],
      emailAddresses: ['a@example.com'],
      uris: ['spiffe://x/y'],
      privateKey: key.privateKeyPem,
    });
    assert.ok(pem.startsWith('-----BEGIN CERTIFICATE REQUEST-----\n'));
    assert.ok(opensslReqVerifies(pem), 'openssl req -verify');
    const text = opensslReqText(pem);
    // One RDN for both O values, sorted by DER (pkix.Name.ToRDNSequence, as client-go's MakeCSR).
    assert.match(text, /Subject: O = b \+ O = system:nodes, CN = system:node:n1/);
    assert.match(text, /Requested Extensions:\s+X509v3 Subject Alternative Name: \s*DNS:n1\.example, email:a@example\.com, IP Address:192\.0\.2\.1, IP Address:FE80:0:0:0:0:0:0:1, URI:spiffe:\/\/x\/y/);

    const csr = parseCsr(pem);
    assert.equal(csr.commonName, 'system:node:n1');
    assert.deepEqual(csr.organizations, ['b', 'system:nodes']);
    assert.deepEqual(csr.dnsNames, ['n1.example']);
    assert.deepEqual(csr.ipAddresses, ['192.0.2.1', 'fe80::1']);
    assert.deepEqual(csr.emailAddresses, ['a@example.com']);
    assert.deepEqual(csr.uris, ['spiffe://x/y']);
    assert.equal(csr.signatureAlgorithm, k.sig);
    assert.deepEqual(csr.publicKey.spki, opensslBytes(['pkey', '-pubin', '-outform', 'DER'], { input: key.publicKeyPem }));
    verifyCsr(csr);
  });
}

test('no SANs: empty attributes; empty subject with SANs: critical SAN', () => {
  const key = generateKeyPair();
  const plain = createCsr({ subject: { commonName: 'plain' }, privateKey: key.keyObject });
  assert.ok(opensslReqVerifies(plain));
  assert.deepEqual(parseCsr(plain).extensions, []);
  const anonymous = createCsr({ subject: {}, dnsNames: ['only.example'], privateKey: key.keyObject });
  assert.ok(opensslReqVerifies(anonymous));
  assert.match(opensslReqText(anonymous), /X509v3 Subject Alternative Name: critical/);
  assert.equal(parseCsr(anonymous).extensions[0]!.critical, true);
});

test('PKCS#1 and SEC1 private key PEMs are accepted', () => {
  const rsa = openssl(['genrsa', '-traditional', '2048']);
  assert.match(rsa, /BEGIN RSA PRIVATE KEY/);
  assert.ok(opensslReqVerifies(createCsr({ subject: { commonName: 'rsa' }, privateKey: rsa })));
  const ec = openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout']);
  assert.match(ec, /BEGIN EC PRIVATE KEY/);
  assert.ok(opensslReqVerifies(createCsr({ subject: { commonName: 'ec' }, privateKey: ec })));
  assert.throws(() => createCsr({ subject: { commonName: 'x' }, privateKey: 'not a key' }), TypeError);
});
