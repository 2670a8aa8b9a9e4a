// Differential test of the CSR parser behind the facade (core/crypto parseCsr + verifyCsr, whatever
// backend serves it) against an independent asn1js reading: thousands of requests made by
// node:crypto keys through createCsr, and requests made by the real `openssl req` with random
// subjects, SANs and extensions, must parse to the same fields and verify.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createCsr, parseCsr, verifyCsr, type ParsedCsr } from '../../core/crypto/index.js';
import { readCsrWithAsn1js } from '../helpers/asn1js-csr.js';
import { tempDir } from '../helpers/plat.js';

/** A small deterministic PRNG, so a failure names a reproducible case. */
function rng(seed: number) {
  let s = seed >>> 0;
  const next = () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 0x100000000; };
  return {
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!,
  };
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const UNICODE = ['é', 'ß', 'Ω', 'д', '中', '😀', ' ', '-', '.', ',', '+', '"', '\\'];

function compare(parsed: ParsedCsr, der: Uint8Array, label: string): void {
  const ref = readCsrWithAsn1js(der);
  assert.deepEqual(parsed.subject.map((rdn) => rdn.map((a) => ({ type: a.type, value: a.value }))), ref.subject, `${label}: subject`);
  assert.equal(parsed.commonName, ref.commonName, `${label}: commonName`);
  assert.deepEqual(parsed.organizations, ref.organizations, `${label}: organizations`);
  assert.deepEqual(parsed.dnsNames, ref.dnsNames, `${label}: dnsNames`);
  assert.deepEqual(parsed.ipAddresses, ref.ipAddresses, `${label}: ipAddresses`);
  assert.deepEqual(parsed.emailAddresses, ref.emailAddresses, `${label}: emailAddresses`);
  assert.deepEqual(parsed.uris, ref.uris, `${label}: uris`);
  assert.deepEqual(parsed.extensions.map((e) => ({ oid: e.oid, critical: e.critical, value: Buffer.from(e.value).toString('hex') })), ref.extensions, `${label}: extensions`);
  assert.equal(parsed.publicKey.algorithm, ref.publicKey.algorithm, `${label}: key algorithm`);
  assert.equal(Buffer.from(parsed.publicKey.spki).toString('hex'), ref.publicKey.spki, `${label}: spki`);
  if (ref.publicKey.curve) assert.equal(parsed.publicKey.curve, ref.publicKey.curve, `${label}: curve`);
  if (ref.publicKey.bits) assert.equal(parsed.publicKey.bits, ref.publicKey.bits, `${label}: rsa bits`);
  assert.equal(parsed.signatureAlgorithm, ref.signatureAlgorithm, `${label}: signature algorithm`);
}

describe('CSR parsing, differential against asn1js', () => {
  it('2000 requests from node:crypto keys with random subjects and SANs', () => {
    const r = rng(0x5eed);
    const keys: KeyObject[] = [
      ...[1, 2, 3].map(() => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey),
      ...[1, 2].map(() => generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey),
      ...[1, 2].map(() => generateKeyPairSync('ec', { namedCurve: 'P-521' }).privateKey),
      ...[1, 2, 3].map(() => generateKeyPairSync('ed25519').privateKey),
      generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey,
    ];
    const word = (n: number, unicode: boolean) => Array.from({ length: 1 + r.int(n) }, () => (unicode && r.int(4) === 0 ? r.pick(UNICODE) : r.pick([...ALPHABET]))).join('');
    const label = () => word(10, false).replace(/^[^a-z0-9]+/, 'a');
    for (let i = 0; i < 2000; i++) {
      const ip4 = () => [r.int(256), r.int(256), r.int(256), r.int(256)].join('.');
      const ip6 = () => Array.from({ length: 8 }, () => (r.int(3) === 0 ? '0' : r.int(0x10000).toString(16))).join(':');
      const opts = {
        subject: {
          ...(r.int(5) ? { commonName: word(30, true) } : {}),
          organizations: Array.from({ length: r.int(4) }, () => word(20, true)),
        },
        dnsNames: Array.from({ length: r.int(4) }, () => `${label()}.${label()}.example`),
        ipAddresses: Array.from({ length: r.int(3) }, () => (r.int(2) ? ip4() : ip6())),
        emailAddresses: Array.from({ length: r.int(2) }, () => `${label()}@${label()}.example`),
        uris: Array.from({ length: r.int(2) }, () => `spiffe://${label()}.example/ns/${label()}`),
        privateKey: keys[i % keys.length]!,
      };
      const pem = createCsr(opts);
      const parsed = parseCsr(pem);
      compare(parsed, parsed.der, `case ${i}`);
      verifyCsr(parsed);
    }
  });

  it('requests from the real `openssl req` with random subjects, SANs and extensions', () => {
    const r = rng(0xc5a);
    const dir = tempDir('plat-diff-');
    const keyArgs = [
      ['-newkey', 'rsa:2048'], ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256'],
      ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-384'], ['-newkey', 'ed25519'],
    ];
    const keyFiles = keyArgs.map((args, k) => {
      const file = path.join(dir, `k${k}.pem`);
      execFileSync('openssl', ['req', '-new', ...args, '-nodes', '-keyout', file, '-subj', '/CN=seed', '-out', path.join(dir, 'seed.csr')], { stdio: 'ignore' });
      return file;
    });
    const ku = ['digitalSignature', 'keyEncipherment', 'keyAgreement', 'nonRepudiation', 'keyCertSign', 'cRLSign'];
    const eku = ['serverAuth', 'clientAuth', 'codeSigning', 'emailProtection', 'timeStamping', 'OCSPSigning'];
    for (let i = 0; i < 40; i++) {
      const w = () => Array.from({ length: 1 + r.int(8) }, () => r.pick([...ALPHABET])).join('');
      const rdns = [`CN=${w()}`, ...Array.from({ length: r.int(3) }, () => `O=${w()}`), ...(r.int(2) ? [`OU=${w()}+L=${w()}`] : []), ...(r.int(2) ? ['C=DE'] : [])];
      const exts: string[] = [];
      if (r.int(2)) exts.push(`subjectAltName=DNS:${w()}.example,IP:10.${r.int(256)}.0.${r.int(256)},email:${w()}@example.com,URI:https://${w()}.example/`);
      if (r.int(2)) exts.push(`${r.int(2) ? 'keyUsage=critical,' : 'keyUsage='}${ku.filter(() => r.int(2)).concat('digitalSignature').join(',')}`);
      if (r.int(2)) exts.push(`extendedKeyUsage=${eku.filter(() => r.int(2)).concat('clientAuth').join(',')}`);
      if (r.int(3) === 0) exts.push('basicConstraints=critical,CA:FALSE');
      if (r.int(3) === 0) exts.push(`1.2.3.4.${r.int(100)}=ASN1:UTF8String:${w()}`);
      const out = path.join(dir, `r${i}.csr`);
      execFileSync('openssl', ['req', '-new', '-key', keyFiles[i % keyFiles.length]!, '-subj', `/${rdns.join('/')}`, '-multivalue-rdn',
        ...exts.flatMap((e) => ['-addext', e]), '-outform', 'DER', '-out', out], { stdio: 'ignore' });
      const der = new Uint8Array(readFileSync(out));
      const parsed = parseCsr(`-----BEGIN CERTIFICATE REQUEST-----\n${Buffer.from(der).toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`);
      compare(parsed, der, `openssl case ${i} (${rdns.join('/')} ${exts.join(' ')})`);
      verifyCsr(parsed);
    }
  });
});
