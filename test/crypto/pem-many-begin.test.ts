// BEGIN lines without their block in front of a real one: Go's pem.Decode skips each (the search
// goes on after its BEGIN line), so a CSR or certificate behind thousands of them is still found.
// The WASM decoder once took arena for every candidate that failed and trapped (`unreachable`)
// after about 2,200 of them: a 500 on create, or a CSR accepted and then never signed. Both
// decoders were also quadratic in the number of BEGIN lines (as Go was before CVE-2025-61723):
// the last test's 2 MB inputs took the TypeScript decoder minutes and the WASM one 40 s, holding
// the event loop; linear, they take milliseconds.
import test from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import {
  createCsr, decodeFirstPemBlock, issueCertificate, issueCertificates, parseCsr, validateCertificatePem,
} from '../../core/crypto/index.js';
import { wasmDecodeFirstPem, wasmParseCsr, wasmValidateCertificatePem } from '../../core/crypto/wasm/parse.js';
import { makeCa, makeCert } from '../helpers/certs.js';

const N = 3000;
const repeat = (line: string, n = N): string => line.repeat(n);
const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const csrPem = createCsr({ subject: { commonName: 'behind-begins' }, privateKey });
const prefixed = repeat('-----BEGIN CERTIFICATE REQUEST-----\n') + csrPem;

test('the TypeScript and WASM decoders find the block behind thousands of BEGIN lines', () => {
  const ts = decodeFirstPemBlock(prefixed)!;
  assert.equal(ts.block.label, 'CERTIFICATE REQUEST');
  assert.deepEqual(wasmDecodeFirstPem(prefixed), { label: ts.block.label, headerCount: 0, der: ts.block.der });
  assert.deepEqual(ts.block.der, decodeFirstPemBlock(csrPem)!.block.der);
  // No END anywhere: nothing, from either.
  const unended = repeat('-----BEGIN CERTIFICATE REQUEST-----\n');
  assert.equal(decodeFirstPemBlock(unended), undefined);
  assert.equal(wasmDecodeFirstPem(unended), undefined);
});

test('a CSR behind thousands of BEGIN lines parses, and is issued singly and in a batch', () => {
  const { ranges: _r, ...viaWasm } = wasmParseCsr(prefixed);
  const { ranges: _s, ...plain } = wasmParseCsr(csrPem);
  assert.deepEqual(viaWasm, plain);
  assert.deepEqual(parseCsr(prefixed).der, parseCsr(csrPem).der);
  const ca = makeCa();
  const issuing = { certificatePem: ca.certificatePem, privateKey: ca.keyObject };
  const now = Date.now();
  const policy = { usages: ['digital signature', 'client auth'], notBefore: new Date(now - 300_000), notAfter: new Date(now + 3600_000) };
  assert.match(issueCertificate(prefixed, issuing, policy).certificatePem, /^-----BEGIN CERTIFICATE-----\n/);
  const batch = issueCertificates([prefixed, prefixed], issuing, policy);
  for (const r of batch) assert.ok(!('error' in r), 'error' in r ? r.error.message : '');
});

test('status.certificate behind thousands of BEGIN lines: the same verdicts as Go, from both validators', () => {
  const ca = makeCa();
  const leaf = makeCert(ca, { commonName: 'leaf', extKeyUsage: ['client auth'] });
  const cases: [string, string][] = [
    // Every BEGIN line pairs with the one END: an empty block, which holds no certificate.
    ['no certificate', repeat('-----BEGIN CERTIFICATE-----\n') + '-----END CERTIFICATE-----\n'],
    ['a certificate', repeat('-----BEGIN CERTIFICATE-----\n') + leaf.certificatePem],
  ];
  for (const [name, input] of cases) {
    const ts = validateCertificatePem(input);
    assert.deepEqual(wasmValidateCertificatePem(input), ts, name);
    if (name === 'a certificate') assert.deepEqual(ts, validateCertificatePem(leaf.certificatePem), name);
  }
});

test('two megabytes of BEGIN lines are decoded in one pass, with and without an END', () => {
  const big = 60_000;
  for (const input of [
    repeat('-----BEGIN CERTIFICATE REQUEST-----\n', big),
    repeat('-----BEGIN CERTIFICATE-----\n', big) + '-----END CERTIFICATE-----\n',
    repeat('-----BEGIN CERTIFICATE REQUEST-----\n', big) + csrPem,
  ]) {
    const ts = decodeFirstPemBlock(input);
    const wa = wasmDecodeFirstPem(input);
    assert.deepEqual(wa, ts === undefined ? undefined : { label: ts.block.label, headerCount: 0, der: ts.block.der });
  }
});
