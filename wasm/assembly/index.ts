// The one export surface of the crypto core: functions over bytes in linear memory.
// core/crypto/wasm/ is the only caller.
export { alloc, reset } from './memory';
// -- sha2.ts exports --
// -- ed25519.ts exports --
// -- p256.ts exports --
// -- parse exports (pem.ts, der.ts, certificate-pem.ts, csr.ts) --
// -- x509 build exports (der-writer.ts, x509.ts) --
