export * from './types.js';
export { AuthenticationConfigError, loadAuthenticationConfiguration, parseAuthenticationConfiguration, loadFailure } from './load.js';
export {
  validateAuthenticationConfiguration, validateJWTAuthenticator, acceptingCompiler, invalidConfigurationMessage,
  isReservedExtraKey, parseCertificatePool, goParseURL, MAX_JWT_AUTHENTICATORS, RESERVED_EXTRA_DOMAINS,
} from './validate.js';
export type { ExpressionCompiler, ExpressionKind, CompileResult } from './validate.js';
export { AUTHENTICATION_CONFIG_FLAG, ANONYMOUS_AUTH_FLAG, explicitlySet } from './flags.js';
