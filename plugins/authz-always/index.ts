export { AlwaysAllowAuthorizer } from './always-allow-authorizer.js';
export { AlwaysDenyAuthorizer } from './always-deny-authorizer.js';
export { AUTHORIZATION_MODE_FLAG, AUTHORIZATION_MODE_KIND, modeStage } from './mode.js';
