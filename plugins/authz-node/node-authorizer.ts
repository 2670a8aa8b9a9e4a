// NodeAuthorizer: authorization mode Node, for node agents (user `system:node:<name>` in group
// `system:nodes`); everyone else gets no opinion, so the authorizers after it (RBAC) decide.
// upstream's node_authorizer.go, with its reasons:
//   - nodes: create/update/patch any (NodeRestriction admission limits that to its own), read only
//     its own Node object (a get by name, or a list/watch whose field selector pins
//     metadata.name, which request-info puts in the attributes' name), update/patch nodes/status;
//   - leases in `plat-node-lease` (upstream kube-node-lease) named after the node: get, update,
//     patch, delete; create (the name is not known yet then);
//   - secrets and configmaps: only those its pods use, found upstream in a graph of pods and their
//     references. plat serves no pods, so that graph is empty and a node reads no secret or
//     configmap; the same holds for service-account tokens (only for its pods' accounts);
//   - everything else: the static node rules (node-rules.ts), e.g. its CSRs and the review APIs.
// It never denies: "no" is no opinion, with upstream's reason where it gives one (the 403 and a
// SubjectAccessReview's status.reason end with it; logged at -v=2 as upstream's NODE DENY).
// Its rules (rulesFor): a node's cannot be listed (incomplete, with upstream's error), anyone
// else's are none.
import type { Attributes, Decision } from '../../core/authz/attributes.js';
import { AUTHORIZATION_MODE_KIND, modeStage } from '../../core/authz/chain.js';
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import { cannotListRules, NO_RULES, type UserRules } from '../../core/authz/rules.js';
import { servedGroup } from '../../core/authz/served-group.js';
import { NODE_LEASE_NAMESPACE } from '../../core/nodes/node-object.js';
import { nodeIdentity } from './node-identity.js';
import { rulesAllow } from './node-rules.js';

const PLUGIN_NAME = 'NodeAuthorizer';
const MODE = 'Node';
/** spec 03: the node agent's lease lives in this namespace, named after the node. */
export { NODE_LEASE_NAMESPACE };

/** Allow, no opinion with upstream's reason, or no opinion without one (undefined). */
export type NodeDecision = Decision | undefined;

const ALLOW: Decision = Object.freeze({ decision: 'allow' });
const no = (reason?: string): NodeDecision => (reason ? { decision: 'noOpinion', reason } : undefined);
/** The graph of pods and what they reference is always empty in plat. */
const noRelationship = (node: string): NodeDecision => no(`no relationship found between node '${node}' and this object`);

function authorizeNode(node: string, a: Attributes): NodeDecision {
  if (a.subresource === '') {
    if (['create', 'update', 'patch'].includes(a.verb)) return ALLOW;
    if (['get', 'list', 'watch'].includes(a.verb)) {
      // By name, not through the graph, so a node can read its Node object before creating it.
      if (a.name === node) return ALLOW;
      if (a.name === '') return no(`node '${node}' cannot read all nodes, only its own Node object`);
      return no(`node '${node}' cannot read '${a.name}', only its own Node object`);
    }
  } else if (a.subresource === 'status' && ['update', 'patch'].includes(a.verb)) {
    return ALLOW;
  }
  return no();
}

function authorizeLease(node: string, a: Attributes): NodeDecision {
  if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb)) return no('can only get, create, update, patch, or delete a node lease');
  if (a.namespace !== NODE_LEASE_NAMESPACE) return no(`can only access leases in the "${NODE_LEASE_NAMESPACE}" system namespace`);
  if (a.verb !== 'create' && a.name !== node) return no('can only access node lease with the same name as the requesting node');
  return ALLOW;
}

function authorizeReadNamespacedObject(node: string, a: Attributes): NodeDecision {
  if (!['get', 'list', 'watch'].includes(a.verb)) return no('can only read resources of this type');
  if (a.subresource !== '') return no('cannot read subresource');
  if (a.namespace === '') return no('can only read namespaced object of this type');
  if (a.name === '') return no('No Object name found');
  return noRelationship(node);
}

function authorizeCreateToken(node: string, a: Attributes): NodeDecision {
  if (a.verb !== 'create' || a.name === '') return no('can only create tokens for individual service accounts');
  if (a.subresource !== 'token') return no('can only create token subresource of serviceaccount');
  return noRelationship(node);
}

/**
 * `withSelectors`: the AuthorizeNodeWithSelectors gate (beta, on in 1.32). Off, a node's requests
 * for nodes fall through to the static rules, which let it read every Node, as upstream's.
 */
export function decideForNode(a: Attributes, withSelectors = true): NodeDecision {
  const { isNode, nodeName } = nodeIdentity(a.user);
  if (!isNode) return no();
  if (nodeName === '') return no(`unknown node for user "${a.user.name}"`);
  if (a.isResourceRequest) {
    // A review may name the group as upstream spells it (certificates.k8s.io); it means plat's.
    switch (`${servedGroup(a.apiGroup)}/${a.resource}`) {
      case '/nodes': if (withSelectors) return authorizeNode(nodeName, a); break;
      case 'coordination.platform/leases': return authorizeLease(nodeName, a);
      case '/secrets':
      case '/configmaps': return authorizeReadNamespacedObject(nodeName, a);
      case '/serviceaccounts': return authorizeCreateToken(nodeName, a);
    }
  }
  return rulesAllow(a) ? ALLOW : no();
}

const NODE_RULES = cannotListRules('node authorizer');

/** NodeAuthorizer.RulesFor. */
export const rulesForNode = (user: Attributes['user']): UserRules => (nodeIdentity(user).isNode ? NODE_RULES : NO_RULES);

export const NodeAuthorizer: Plugin = {
  name: PLUGIN_NAME,
  apply(host: Host): void {
    host.capabilities.provide(AUTHORIZATION_MODE_KIND, MODE, PLUGIN_NAME);
    host.hooks.configure.tap(PLUGIN_NAME, (cfg) => {
      const stage = modeStage(host, cfg.flags, MODE);
      if (stage === undefined) return;
      const log = host.logger.child(PLUGIN_NAME);
      const withSelectors = host.featureGates.enabled('AuthorizeNodeWithSelectors');
      host.hooks.authorize.tap({ name: PLUGIN_NAME, stage }, (attrs) => {
        const d = decideForNode(attrs, withSelectors);
        if (d?.decision === 'noOpinion') log.v(2).info(`NODE DENY: ${d.reason}`, { user: attrs.user.name, verb: attrs.verb, resource: attrs.resource, name: attrs.name, namespace: attrs.namespace });
        return d;
      });
      host.hooks.rulesFor.tap({ name: PLUGIN_NAME, stage }, (q) => rulesForNode(q.user));
    });
  },
};
