export { authenticateCertificateChain, CREDENTIAL_ID_KEY } from './chain.js';
export type { CertificateAuthentication } from './chain.js';
export { loadCaBundle, readCaBundle, parseCaBundle } from './ca-bundle.js';
export type { Certificate } from './certificate.js';
