export { AlwaysAllowAuthorizer } from './always-allow-authorizer.js';
export { AlwaysDenyAuthorizer } from './always-deny-authorizer.js';
