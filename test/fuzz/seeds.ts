// Valid inputs the fuzzers start from: CSRs and certificates of each key type, made once.
import { generateKeyPairSync } from 'node:crypto';
import { createCertificate, createCsr, encodePem } from '../../core/crypto/index.js';

export interface Seeds { csrs: Uint8Array[]; certificates: Uint8Array[] }

export function makeSeeds(): Seeds {
  const keys = [
    generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey,
    generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey,
    generateKeyPairSync('ed25519').privateKey,
    generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey,
  ];
  const csrs = keys.map((k, i) => {
    const pem = createCsr({ subject: { commonName: `seed-${i}`, organizations: ['fuzz'] }, dnsNames: ['a.example'], ipAddresses: ['10.0.0.1', '::1'], emailAddresses: ['a@example.com'], uris: ['https://example.com/x'], privateKey: k });
    return new Uint8Array(Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ''), 'base64'));
  });
  const now = Date.now();
  const certificates = keys.map((k, i) => createCertificate({
    template: { subject: { commonName: `cert-${i}` }, notBefore: new Date(now), notAfter: new Date(now + 86_400_000), dnsNames: ['a.example'], keyUsage: ['digital signature'], extKeyUsage: ['server auth'] },
    publicKey: k, signer: k,
  }).der);
  return { csrs, certificates };
}

export { encodePem };
