export { NodeAuthorizer, decideForNode, NODE_LEASE_NAMESPACE } from './node-authorizer.js';
export type { NodeDecision } from './node-authorizer.js';
export { nodeIdentity, NODE_USER_PREFIX, NODES_GROUP } from './node-identity.js';
export { NODE_RULES, rulesAllow } from './node-rules.js';
export type { PolicyRule } from './node-rules.js';
