export { X509Authenticator, createX509Authenticator, authenticateCertificateChain, CLIENT_CA_FILE_FLAG, CREDENTIAL_ID_KEY } from './x509-authenticator.js';
export type { X509AuthenticatorOptions, CertificateAuthentication } from './x509-authenticator.js';
export { loadCaBundle, readCaBundle, parseCaBundle } from './ca-bundle.js';
