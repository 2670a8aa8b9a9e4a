export { X509Authenticator, createX509Authenticator, CLIENT_CA_FILE_FLAG } from './x509-authenticator.js';
export type { X509AuthenticatorOptions } from './x509-authenticator.js';
