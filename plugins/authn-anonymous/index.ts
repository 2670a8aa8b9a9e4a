export { AnonymousAuthenticator, ANONYMOUS_AUTH_FLAG, ANONYMOUS_STAGE } from './anonymous-authenticator.js';
