// The node serving and client CSR rules (k8s-behaviour §1.6), in their order, as a table.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { validateNodeClientCsr, validateNodeServingCsr } from '../../core/certificates/node-csr.js';
import { createCsr, parseCsr, type CreateCsrOptions } from '../../core/crypto/index.js';

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
