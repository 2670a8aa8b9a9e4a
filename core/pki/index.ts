// PKI files for start-up: CA, serving and client certificates on disk, made once and reused.
export { writeFileAtomic, writeFileAtomicSync, writeFileIfChanged, writeFilesAtomic } from './write-file-atomic.js';
export { caFiles, ensureCa } from './ca.js';
export { ensureSelfSignedServing, ensureServingFromCa, generateSelfSignedServing, selfSignedServingLines, selfSignedShape, type SelfSignedOutcome } from './serving.js';
export { ensureClientCertificate } from './client.js';
export { pairFiles, PkiError, writePair, type CertKeyPair } from './pair.js';
export { ensureSigningKey, signingKeyFiles, type SigningKeyFiles } from './signing-key.js';
