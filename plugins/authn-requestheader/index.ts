export {
  RequestHeaderAuthenticator, createRequestHeaderAuthenticator, REQUESTHEADER_FLAGS, REQUESTHEADER_STAGE,
} from './requestheader-authenticator.js';
export type { RequestHeaderAuthenticatorOptions } from './requestheader-authenticator.js';
export { getProxyClientCredentials, loadProxyClientCredentials } from './proxy-client.js';
export type { ProxyClientCredentials } from './proxy-client.js';
