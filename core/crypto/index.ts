// The crypto facade: the only door to crypto in plat. Everything here takes and returns bytes, PEM
// strings or node:crypto KeyObjects; the backend behind each operation (the AssemblyScript WASM
// core, node:crypto) is chosen in backend.ts and named in results, so callers never see it.
export { CryptoError } from './errors.js';
export { decodePemBlocks, decodeFirstPemBlock, encodePem, type PemBlock } from './pem.js';
export type { ParsedCsr, CsrExtension } from './csr.js';
export { parseCsr, parseCsrDer, verifyCsr, validateCertificatePem, issueCertificate, createCertificate, sign, type IssuePolicy, type IssuingCa, type IssueResult } from './pipeline.js';
export { parseWireCsr } from './wire-csr.js';
export { issueCertificates, type IssueBatchResult, type IssueBatchOptions } from './issue-batch.js';
export { DEFAULT_BACKENDS, CRYPTO_BACKEND, type Backend } from './backend.js';
export type { DistinguishedNameAttribute } from './names.js';
export type { PublicKeyInfo, PublicKeyAlgorithm } from './public-key.js';
export type { X509Extension } from './extensions.js';
export { splitCertificates, type CertificatePemValidation } from './certificate-pem.js';
export { parseCertificate, parseCertificateDer, type ParsedCertificate } from './certificate.js';
export { generateKeyPair, toPrivateKey, toPublicKey, spkiOf, samePublicKey, type KeyType, type GeneratedKeyPair } from './keys.js';
export {
  createCertificate as createCertificateTypescript,
  subjectKeyId,
  type CertificateTemplate,
  type CertificateIssuer,
  type CreateCertificateOptions,
} from './x509-build.js';
export { createCsr, type CreateCsrOptions } from './csr-build.js';
export { keyUsagesFromStrings, KEY_USAGE_BITS, EXT_KEY_USAGE_OIDS } from './usages.js';
export { formatIp, parseIp } from './general-names.js';

/** The reference TypeScript parsers, kept for differential tests and the cold path; not the default. */
export { parseCsr as parseCsrTypescript, verifyCsr as verifyCsrTypescript, verifyCsrWithKey } from './csr.js';
export { validateCertificatePem as validateCertificatePemTypescript } from './certificate-pem.js';
