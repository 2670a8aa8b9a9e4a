export {
  OidcAuthenticator, createOidcAuthenticator, resolveJwtAuthenticators, checkFileConfiguration, authenticationConfigReloader, OIDC_STAGE, FLAGS_MUST_GO_TOGETHER, FILE_AND_FLAGS_EXCLUSIVE,
} from './oidc-authenticator.js';
export type { OidcAuthenticatorDeps } from './oidc-authenticator.js';
export { OIDC_FLAGS, jwtAuthenticatorFromFlags, oidcFlagsSet } from './flags.js';
export { CelCompiler, celInput, celStringList, evaluate, hasSelect } from './cel.js';
export { JwtAuthenticator, OidcError, NBF_LEEWAY_SECONDS } from './jwt-authenticator.js';
export { RemoteKeySet } from './remote-key-set.js';
export { RefreshLimiter } from './refresh-limiter.js';
export { createFetchJson } from './https-get.js';
export { AuthenticationConfigReloader, UPDATE_TIMEOUT_MS, HEALTH_POLL_MS, RETIRE_AFTER_MS } from './config-reload.js';
export { JwtSet } from './jwt-set.js';
