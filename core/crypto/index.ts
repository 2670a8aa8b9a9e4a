// The crypto facade: the only door to crypto in plat. Everything here takes and returns bytes, PEM
// strings or node:crypto KeyObjects, so the backend behind it (TypeScript + node:crypto today, the
// AssemblyScript WASM core later) can change without callers noticing.
export { CryptoError } from './errors.js';
export { decodePemBlocks, decodeFirstPemBlock, encodePem, type PemBlock } from './pem.js';
export { parseCsr, parseCsrDer, verifyCsr, type ParsedCsr, type CsrExtension } from './csr.js';
export type { DistinguishedNameAttribute } from './names.js';
export type { PublicKeyInfo, PublicKeyAlgorithm } from './public-key.js';
export type { X509Extension } from './extensions.js';
export { validateCertificatePem, splitCertificates, type CertificatePemValidation } from './certificate-pem.js';
export { parseCertificate, parseCertificateDer, type ParsedCertificate } from './certificate.js';
export { generateKeyPair, toPrivateKey, toPublicKey, spkiOf, samePublicKey, type KeyType, type GeneratedKeyPair } from './keys.js';
export {
  createCertificate,
  subjectKeyId,
  type CertificateTemplate,
  type CertificateIssuer,
  type CreateCertificateOptions,
} from './x509-build.js';
export { createCsr, type CreateCsrOptions } from './csr-build.js';
export { issueCertificate, type IssuePolicy, type IssuingCa, type IssueResult } from './issue.js';
export { keyUsagesFromStrings, KEY_USAGE_BITS, EXT_KEY_USAGE_OIDS } from './usages.js';
export { formatIp, parseIp } from './general-names.js';

/** Which implementation does each part of the work today (the WASM core will take over the first three). */
export const CRYPTO_BACKEND = {
  pem: 'typescript',
  der: 'typescript',
  x509Build: 'typescript',
  sign: 'node:crypto',
  verify: 'node:crypto',
  keyGeneration: 'node:crypto',
} as const;
