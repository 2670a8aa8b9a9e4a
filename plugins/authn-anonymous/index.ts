export { AnonymousAuthenticator, ANONYMOUS_AUTH_FLAG, ANONYMOUS_STAGE, FILE_AND_FLAG_EXCLUSIVE } from './anonymous-authenticator.js';
