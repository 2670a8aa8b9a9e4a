export { AuthorizationConfigPlugin, loadAuthorizerChain, AUTHORIZATION_CONFIG_FLAG, LEGACY_AUTHORIZATION_FLAGS } from './authorization-config-plugin.js';
export { readAuthorizationConfiguration, decodeAuthorizationConfiguration, CONFIG_API_VERSIONS, CONFIG_KIND } from './decode.js';
export type { AuthorizationConfigurationDoc, AuthorizerDoc, WebhookDoc } from './decode.js';
export { validateAuthorizationConfiguration, AUTHORIZER_TYPES } from './validate.js';
