// The one export surface of the crypto core: functions over bytes in linear memory.
// core/crypto/wasm/ is the only caller.
export { alloc, reset } from './memory';
// -- sha2.ts exports --
export { sha256, sha384, sha512, hmacSha256, hmacSha256Parts, hmacSha384, hmacSha512 } from './sha2';
// -- ed25519.ts exports --
export { ed25519PublicKey, ed25519Sign, ed25519Verify, ed25519Forget } from './ed25519';
// -- p256.ts exports --
export { p256PublicKey, p256SignDigest, p256Sign, p256VerifyDigest, p256Verify, p256SignBatch } from './p256';
// -- parse exports (pem.ts, der.ts, certificate-pem.ts, csr.ts) --
export { pemDecode, pemEncode, pemEncodedLength } from './pem';
export { parseCsrPem, parseCsrDer } from './csr';
export { validateCertificatePem } from './certificate-pem';
// -- x509 build exports (der-writer.ts, x509.ts) --
export { x509BuildTbs, x509AssembleCertificate, x509Output, pemEncodeCertificate } from './x509';
// -- issue-batch.ts exports --
export { issueBatch } from './issue-batch';
// -- go-url.ts exports (Go's url.Parse and URL.String for URI SANs) --
export { goUrl, goUrlOutput, goUrlErrorAt, goUrlErrorLen, goUrlErrorUrlLen } from './go-url';
