// parseWireCsr shares one parse of spec.request among its readers (validation, the admission
// plugins, the approving controller): whatever it remembered, each text must get exactly the
// answer a fresh parseCsr of its bytes gives.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { createCsr, CryptoError, parseCsr, parseWireCsr, verifyCsr } from '../../core/crypto/index.js';

const key = () => generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
const wire = (pem: string) => Buffer.from(pem).toString('base64');
const csrText = (cn: string, organizations: string[]) => wire(createCsr({ subject: { commonName: cn, organizations }, privateKey: key() }));
const fresh = (text: string) => parseCsr(Buffer.from(text, 'base64'));

/** The fields a reader sees, without the object identity. */
const fields = (c: ReturnType<typeof parseCsr>) => ({ ...c, der: Buffer.from(c.der).toString('hex') });

describe('parseWireCsr', () => {
  const alice = csrText('alice', ['dev']);
  const eve = csrText('eve', ['system:masters']);

  it('answers each of two different requests with its own parse', () => {
    parseWireCsr(alice);
    const e = parseWireCsr(eve);
    assert.deepEqual(fields(e), fields(fresh(eve)));
    assert.deepEqual(e.organizations, ['system:masters']);
    assert.deepEqual(parseWireCsr(alice).organizations, ['dev']);
    assert.equal(parseWireCsr(alice).commonName, 'alice');
  });

  it('gives the same request bytes in different objects and spellings the same answer', () => {
    const first = parseWireCsr(alice);
    // Another string with the same text (as a second decoded object holds), and another base64
    // spelling of the same bytes (Node's decoder skips the line breaks).
    const copy = JSON.parse(JSON.stringify({ spec: { request: alice } })).spec.request as string;
    const wrapped = alice.replace(/(.{64})/g, '$1\n');
    assert.notEqual(wrapped, alice);
    assert.equal(parseWireCsr(copy), first);
    assert.deepEqual(fields(parseWireCsr(wrapped)), fields(first));
  });

  it('follows an object whose request was changed: the key is the text read, not the object', () => {
    const obj = { spec: { request: alice } };
    assert.equal(parseWireCsr(obj.spec.request).commonName, 'alice');
    obj.spec.request = eve;
    assert.equal(parseWireCsr(obj.spec.request).commonName, 'eve');
  });

  it('hands out a frozen result that the proof of possession accepts', () => {
    const c = parseWireCsr(alice);
    assert.ok(Object.isFrozen(c) && Object.isFrozen(c.organizations) && Object.isFrozen(c.subject));
    assert.throws(() => (c.organizations as string[]).push('system:masters'), TypeError);
    assert.deepEqual(parseWireCsr(alice).organizations, ['dev']);
    assert.deepEqual(verifyCsr(c), { backend: 'wasm' });
  });

  it('fails as parseCsr does, every time, and does not keep the failure', () => {
    const bad = wire('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
    for (let i = 0; i < 2; i++) {
      assert.throws(() => parseWireCsr(bad), (e: unknown) => e instanceof CryptoError && e.message === 'PEM block type must be CERTIFICATE REQUEST');
    }
    assert.throws(() => parseWireCsr(''), CryptoError);
  });

  it('does not keep a request of megabytes: a CSR creator cannot make it hold 256 of them', () => {
    // Text after the PEM block is ignored by the parse, so padding makes any valid request huge.
    const huge = wire(`${createCsr({ subject: { commonName: 'huge' }, privateKey: key() })}${'#'.repeat(1024 * 1024)}\n`);
    const first = parseWireCsr(huge);
    assert.equal(first.commonName, 'huge');
    assert.ok(Object.isFrozen(first));
    assert.notEqual(parseWireCsr(huge), first, 'parsed again, not kept');
    assert.equal(parseWireCsr(alice), parseWireCsr(alice), 'a request of normal size is still kept');
  });

  it('still answers right once many other requests have pushed the first out', () => {
    const first = parseWireCsr(eve);
    const one = createCsr({ subject: { commonName: 'many' }, privateKey: key() });
    // Distinct texts of the same CSR (trailing text after the PEM block is ignored by ParseCSR).
    for (let i = 0; i < 300; i++) parseWireCsr(wire(`${one}# ${i}\n`));
    const again = parseWireCsr(eve);
    assert.notEqual(again, first);
    assert.deepEqual(fields(again), fields(first));
  });
});
