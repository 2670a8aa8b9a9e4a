// Test fixtures built through the crypto facade: a CA and certificates it issues, in memory (and
// written out as a pair of files where a flag wants paths).
import type { KeyObject } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createCertificate, generateKeyPair, type CertificateTemplate, type KeyType } from '../../core/crypto/index.js';

export interface TestCredential {
  certificatePem: string;
  privateKeyPem: string;
  keyObject: KeyObject;
  der: Uint8Array;
}

const DAY = 24 * 60 * 60 * 1000;

export function makeCa(opts: { commonName?: string; keyType?: KeyType; now?: Date; days?: number; pathLen?: number; issuer?: TestCredential } = {}): TestCredential {
  const now = opts.now ?? new Date();
  const key = generateKeyPair(opts.keyType ?? 'ecdsa-p256');
  const template: CertificateTemplate = {
    subject: { commonName: opts.commonName ?? 'test-ca' },
    notBefore: new Date(now.getTime() - 60_000),
    notAfter: new Date(now.getTime() + (opts.days ?? 30) * DAY),
    isCA: true,
    keyUsage: ['digital signature', 'cert sign', 'crl sign'],
  };
  if (opts.pathLen !== undefined) template.pathLen = opts.pathLen;
  const issuer = opts.issuer;
  const { certificatePem, der } = createCertificate({
    template,
    publicKey: key.keyObject,
    ...(issuer === undefined ? {} : { issuer: { certificatePem: issuer.certificatePem, privateKey: issuer.keyObject } }),
    signer: issuer === undefined ? key.keyObject : issuer.keyObject,
  });
  return { certificatePem, privateKeyPem: key.privateKeyPem, keyObject: key.keyObject, der };
}

export interface LeafOptions {
  commonName: string;
  organizations?: string[];
  keyType?: KeyType;
  keyUsage?: string[];
  extKeyUsage?: string[];
  dnsNames?: string[];
  ipAddresses?: string[];
  emailAddresses?: string[];
  uris?: string[];
  now?: Date;
  days?: number;
}

export function makeCert(ca: TestCredential, opts: LeafOptions): TestCredential {
  const now = opts.now ?? new Date();
  const key = generateKeyPair(opts.keyType ?? 'ecdsa-p256');
  const { keyType: _k, now: _n, days, commonName, organizations, ...rest } = opts;
  const template: CertificateTemplate = {
    subject: { commonName, organizations: organizations ?? [] },
    notBefore: new Date(now.getTime() - 60_000),
    notAfter: new Date(now.getTime() + (days ?? 7) * DAY),
    keyUsage: ['digital signature', 'key encipherment'],
    ...rest,
  };
  const { certificatePem, der } = createCertificate({
    template,
    publicKey: key.keyObject,
    issuer: { certificatePem: ca.certificatePem, privateKey: ca.keyObject },
    signer: ca.keyObject,
  });
  return { certificatePem, privateKeyPem: key.privateKeyPem, keyObject: key.keyObject, der };
}

export const makeClientCert = (ca: TestCredential, commonName: string, organizations: string[] = []): TestCredential =>
  makeCert(ca, { commonName, organizations, extKeyUsage: ['client auth'] });

export const makeServingCert = (ca: TestCredential, dnsNames: string[], ipAddresses: string[] = []): TestCredential =>
  makeCert(ca, { commonName: dnsNames[0] ?? ipAddresses[0] ?? 'server', dnsNames, ipAddresses, extKeyUsage: ['server auth'] });

/** Writes `<dir>/<name>.crt` and `<dir>/<name>.key`; returns them as `--tls-sni-cert-key` takes them: "crt,key". */
export function writeCertKeyFiles(dir: string, name: string, cred: TestCredential): string {
  const crt = path.join(dir, `${name}.crt`);
  const key = path.join(dir, `${name}.key`);
  writeFileSync(crt, cred.certificatePem);
  writeFileSync(key, cred.privateKeyPem);
  return `${crt},${key}`;
}
