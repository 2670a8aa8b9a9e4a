// The node serving and client CSR rules (k8s-behaviour §1.6), in their order, as a table; the
// ML-DSA usage rule on its own and inside them.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { validateMlDsaKeyUsages } from '../../core/certificates/ml-dsa-usages.js';
import { validateNodeClientCsr, validateNodeServingCsr } from '../../core/certificates/node-csr.js';
import { createCsr, parseCsr, type CreateCsrOptions } from '../../core/crypto/index.js';
import { encodeSubjectAltNames } from '../../core/crypto/general-names.js';
import { encodeName } from '../../core/crypto/names.js';
import { craftMlDsaCsr, extension, extensionRequest, mlDsaKeys, OIDS } from '../crypto/csr-craft.js';

const key = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
const csr = (o: Partial<CreateCsrOptions>) => parseCsr(createCsr({ subject: { commonName: 'system:node:n1', organizations: ['system:nodes'] }, privateKey: key, ...o }));
const node = { commonName: 'system:node:n1', organizations: ['system:nodes'] };
const SERVING = ['digital signature', 'key encipherment', 'server auth'];
const CLIENT = ['digital signature', 'key encipherment', 'client auth'];

describe('node CSR rules', () => {
  const serving: [string, Partial<CreateCsrOptions>, string[], string | undefined][] = [
    ['valid with DNS', { dnsNames: ['n1.example'] }, SERVING, undefined],
    ['valid with IP, usages as a set in any order, duplicates', { ipAddresses: ['10.0.0.1'] }, ['server auth', 'digital signature', 'server auth'], undefined],
    ['organization', { subject: { commonName: 'system:node:n1', organizations: ['system:nodes', 'x'] }, dnsNames: ['a'] }, SERVING, 'subject organization is not system:nodes'],
    ['no SAN', {}, SERVING, 'DNS or IP subjectAltName is required'],
    ['email SAN', { dnsNames: ['a'], emailAddresses: ['a@b.c'] }, SERVING, 'Email subjectAltNames are not allowed'],
    ['URI SAN', { dnsNames: ['a'], uris: ['spiffe://x/y'] }, SERVING, 'URI subjectAltNames are not allowed'],
    ['usages', { dnsNames: ['a'] }, ['digital signature', 'server auth', 'client auth'], 'usages did not match [digital signature key encipherment server auth]'],
    ['CN prefix', { subject: { commonName: 'node-1', organizations: ['system:nodes'] }, dnsNames: ['a'] }, SERVING, 'subject common name does not begin with system:node:'],
  ];
  for (const [name, o, usages, want] of serving) it(`serving: ${name}`, () => assert.equal(validateNodeServingCsr(csr({ subject: node, ...o }), usages), want));

  const client: [string, Partial<CreateCsrOptions>, string[], string | undefined][] = [
    ['valid', {}, CLIENT, undefined],
    ['valid without key encipherment', {}, ['client auth', 'digital signature'], undefined],
    ['empty node name passes the prefix check', { subject: { commonName: 'system:node:', organizations: ['system:nodes'] } }, CLIENT, undefined],
    ['organization', { subject: { commonName: 'system:node:n1', organizations: [] } }, CLIENT, 'subject organization is not system:nodes'],
    ['DNS SAN', { dnsNames: ['a'] }, CLIENT, 'DNS subjectAltNames are not allowed'],
    ['email SAN', { emailAddresses: ['a@b.c'] }, CLIENT, 'Email subjectAltNames are not allowed'],
    ['IP SAN', { ipAddresses: ['10.0.0.1'] }, CLIENT, 'IP subjectAltNames are not allowed'],
    ['URI SAN', { uris: ['spiffe://x'] }, CLIENT, 'URI subjectAltNames are not allowed'],
    ['CN prefix before usages', { subject: { commonName: 'n1', organizations: ['system:nodes'] } }, ['server auth'], 'subject common name does not begin with system:node:'],
    ['usages', {}, ['client auth'], 'usages did not match [client auth digital signature key encipherment]'],
  ];
  for (const [name, o, usages, want] of client) it(`client: ${name}`, () => assert.equal(validateNodeClientCsr(csr({ subject: node, ...o }), usages), want));
});

// Requests with an ML-DSA key: the same checks, plus upstream's ValidateMLDSAKeyUsages at its place
// (serving: after the usages, before the CN; client: last), wrapped as upstream wraps it.
const mlDsa = (o: { commonName?: string; dnsNames?: string[] } = {}) => parseCsr(craftMlDsaCsr({
  keys: mlDsaKeys('ML-DSA-65'),
  subject: encodeName({ commonName: o.commonName ?? 'system:node:n1', organizations: ['system:nodes'] }),
  attributes: o.dnsNames ? [extensionRequest(extension(OIDS.san, encodeSubjectAltNames({ dnsNames: o.dnsNames, ipAddresses: [], emailAddresses: [], uris: [] })))] : [],
}));
const KE = 'validating usages for ml-dsa key: usage key encipherment cannot be used with an ML-DSA signed certificate request';

describe('node CSR rules with an ML-DSA key', () => {
  it('serving: valid without key encipherment', () => assert.equal(validateNodeServingCsr(mlDsa({ dnsNames: ['n1'] }), ['digital signature', 'server auth']), undefined));
  it('serving: key encipherment', () => assert.equal(validateNodeServingCsr(mlDsa({ dnsNames: ['n1'] }), SERVING), KE));
  it('serving: the usage set is checked first', () =>
    assert.equal(validateNodeServingCsr(mlDsa({ dnsNames: ['n1'] }), ['key encipherment', 'server auth']), 'usages did not match [digital signature key encipherment server auth]'));
  it('serving: the ML-DSA rule comes before the CN prefix', () => assert.equal(validateNodeServingCsr(mlDsa({ commonName: 'n1', dnsNames: ['n1'] }), SERVING), KE));
  it('client: valid without key encipherment', () => assert.equal(validateNodeClientCsr(mlDsa(), ['digital signature', 'client auth']), undefined));
  it('client: key encipherment', () => assert.equal(validateNodeClientCsr(mlDsa(), CLIENT), KE));
  it('client: the CN prefix comes before the ML-DSA rule', () =>
    assert.equal(validateNodeClientCsr(mlDsa({ commonName: 'n1' }), CLIENT), 'subject common name does not begin with system:node:'));
  it('an EC key is not held to the ML-DSA rule', () => assert.equal(validateNodeClientCsr(csr({ subject: node }), CLIENT), undefined));
});

describe('ValidateMLDSAKeyUsages', () => {
  const AT_LEAST = 'usages must contain at least one of [cert sign content commitment crl sign digital signature]';
  const no = (u: string) => `usage ${u} cannot be used with an ML-DSA signed certificate request`;
  const cases: [usages: string[], want: string | undefined][] = [
    [['digital signature'], undefined],
    [['content commitment'], undefined],
    [['cert sign'], undefined],
    [['crl sign'], undefined],
    [['digital signature', 'client auth', 'server auth', 'code signing'], undefined],
    [[], AT_LEAST],
    [['client auth'], AT_LEAST],
    [['key encipherment', 'digital signature'], no('key encipherment')],
    [['key agreement', 'digital signature'], no('key agreement')],
    [['data encipherment', 'digital signature'], no('data encipherment')],
    [['encipher only', 'digital signature'], no('encipher only')],
    [['decipher only', 'digital signature'], no('decipher only')],
    // every broken rule, one a line (errors.Join), usages in sorted order, duplicates once
    [['key encipherment', 'decipher only', 'data encipherment', 'key encipherment', 'server auth'],
      [no('data encipherment'), no('decipher only'), no('key encipherment'), AT_LEAST].join('\n')],
    [['key agreement', 'encipher only', 'crl sign'], [no('encipher only'), no('key agreement')].join('\n')],
  ];
  for (const [usages, want] of cases) it(`[${usages.join(', ')}]`, () => assert.equal(validateMlDsaKeyUsages(usages), want));
});
