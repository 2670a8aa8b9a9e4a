// The default ClusterRoles and ClusterRoleBindings (plugin/pkg/auth/authorizer/rbac/bootstrappolicy,
// k8s-behaviour §7), with the groups and signers renamed, plus the bindings upstream leaves to
// kubeadm so node bootstrap works out of the box. The API server reconciles them at start-up.
import { AUTHENTICATED_GROUP, MASTERS_GROUP, UNAUTHENTICATED_GROUP } from '../../core/authn/user.js';
import {
  AGGREGATE_TO_LABEL_PREFIX, AUTOUPDATE_ANNOTATION, BOOTSTRAPPING_LABEL, BOOTSTRAPPING_VALUE, GROUP_KIND, RBAC_GROUP, SERVICE_ACCOUNT_KIND, USER_KIND,
  type ClusterRole, type ClusterRoleBinding, type PolicyRule, type Role, type RoleBinding, type Subject,
} from './types.js';

const CERTIFICATES = 'certificates.platform';
const AUTHENTICATION = 'authentication.platform';
const AUTHORIZATION = 'authorization.platform';
const COORDINATION = 'coordination.platform';
const EVENTS = 'events.platform';
const CORE = '';

export const SIGNER = {
  legacyUnknown: 'platform/legacy-unknown',
  apiserverClient: 'platform/apiserver-client',
  apiserverClientNodeagent: 'platform/apiserver-client-nodeagent',
  nodeagentServing: 'platform/nodeagent-serving',
} as const;

/** The namespace of plat's own service accounts (upstream kube-system). */
export const SYSTEM_NAMESPACE = 'plat-system';
const SERVICE_ACCOUNTS_GROUP = 'system:serviceaccounts';
const BOOTSTRAPPERS_GROUP = 'system:bootstrappers';
const NODES_GROUP = 'system:nodes';
/** user.MonitoringGroup: the group upstream binds system:monitoring to. */
const MONITORING_GROUP = 'system:monitoring';

/** rbacv1helpers.NewRule(...).RuleOrDie(): every list sorted. */
function rule(verbs: string[], r: { groups?: string[]; resources?: string[]; names?: string[]; urls?: string[] }): PolicyRule {
  const sorted = (v: string[]) => [...v].sort();
  return {
    verbs: sorted(verbs),
    ...(r.groups ? { apiGroups: sorted(r.groups) } : {}),
    ...(r.resources ? { resources: sorted(r.resources) } : {}),
    ...(r.names ? { resourceNames: sorted(r.names) } : {}),
    ...(r.urls ? { nonResourceURLs: sorted(r.urls) } : {}),
  };
}

const defaultsMeta = (name: string, namespace?: string) => ({
  name,
  ...(namespace ? { namespace } : {}),
  labels: { [BOOTSTRAPPING_LABEL]: BOOTSTRAPPING_VALUE },
  annotations: { [AUTOUPDATE_ANNOTATION]: 'true' },
});

const clusterRole = (name: string, rules: PolicyRule[]): ClusterRole =>
  ({ apiVersion: `${RBAC_GROUP}/v1`, kind: 'ClusterRole', metadata: defaultsMeta(name), rules });

/** Labelled so that its rules are aggregated into the ClusterRole `into`. */
function aggregatesTo(role: ClusterRole, into: string | undefined): ClusterRole {
  if (into) role.metadata.labels = { ...role.metadata.labels, [`${AGGREGATE_TO_LABEL_PREFIX}${into}`]: 'true' };
  return role;
}

/** A role without rules of its own: the aggregation controller fills them from the roles labelled aggregate-to-<name>. */
const aggregated = (name: string, into?: string): ClusterRole => aggregatesTo({
  apiVersion: `${RBAC_GROUP}/v1`, kind: 'ClusterRole', metadata: defaultsMeta(name),
  aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [`${AGGREGATE_TO_LABEL_PREFIX}${name}`]: 'true' } }] },
}, into);

const group = (name: string): Subject => ({ kind: GROUP_KIND, apiGroup: RBAC_GROUP, name });
const user = (name: string): Subject => ({ kind: USER_KIND, apiGroup: RBAC_GROUP, name });
const serviceAccount = (namespace: string, name: string): Subject => ({ kind: SERVICE_ACCOUNT_KIND, name, namespace });

const binding = (name: string, role: string, subjects: Subject[]): ClusterRoleBinding => ({
  apiVersion: `${RBAC_GROUP}/v1`, kind: 'ClusterRoleBinding', metadata: defaultsMeta(name),
  roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: role },
  ...(subjects.length ? { subjects } : {}),
});

const approver = (role: string, signer: string) =>
  clusterRole(`system:certificates.platform:${role}`, [rule(['approve'], { groups: [CERTIFICATES], resources: ['signers'], names: [signer] })]);

export const NODE_CLIENT_ROLE = 'system:certificates.platform:certificatesigningrequests:nodeclient';
export const SELF_NODE_CLIENT_ROLE = 'system:certificates.platform:certificatesigningrequests:selfnodeclient';
const CERTIFICATE_CONTROLLER = 'system:controller:certificate-controller';
const NAMESPACE_CONTROLLER = 'system:controller:namespace-controller';
const SERVICE_ACCOUNT_CONTROLLER = 'system:controller:service-account-controller';
const GARBAGE_COLLECTOR = 'system:controller:generic-garbage-collector';
const CLUSTERROLE_AGGREGATION_CONTROLLER = 'system:controller:clusterrole-aggregation-controller';
const NODE_CONTROLLER = 'system:controller:node-controller';
const LEGACY_TOKEN_CLEANER = 'system:controller:legacy-service-account-token-cleaner';
/** A Role in plat-system, as upstream's in kube-system. */
const TOKEN_CLEANER = 'system:controller:token-cleaner';
/** The user (a client certificate's CN) the controller manager runs as, with upstream's name. */
export const CONTROLLER_MANAGER_USER = 'system:kube-controller-manager';
/** The controller manager's default --leader-elect-resource-name. */
const CONTROLLER_MANAGER_LEASE = 'plat-controller-manager';
const AUTHENTICATION_READER = 'extension-apiserver-authentication-reader';

const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'update', 'patch', 'delete', 'deletecollection'];

const eventsRule = () => rule(['create', 'update', 'patch'], { groups: [CORE, EVENTS], resources: ['events'] });

export function bootstrapClusterRoles(): ClusterRole[] {
  return [
    clusterRole('cluster-admin', [
      rule(['*'], { groups: ['*'], resources: ['*'] }),
      rule(['*'], { urls: ['*'] }),
    ]),
    clusterRole('system:discovery', [
      rule(['get'], { urls: ['/livez', '/readyz', '/healthz', '/version', '/version/', '/openapi', '/openapi/*', '/api', '/api/*', '/apis', '/apis/*'] }),
    ]),
    // Who may scrape and probe: /metrics is in no other bootstrap role, as upstream.
    clusterRole('system:monitoring', [
      rule(['get'], { urls: ['/metrics', '/metrics/slis', '/livez', '/readyz', '/healthz', '/livez/*', '/readyz/*', '/healthz/*'] }),
    ]),
    clusterRole('system:basic-user', [
      rule(['create'], { groups: [AUTHORIZATION], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] }),
      rule(['create'], { groups: [AUTHENTICATION], resources: ['selfsubjectreviews'] }),
    ]),
    clusterRole('system:public-info-viewer', [
      rule(['get'], { urls: ['/livez', '/readyz', '/healthz', '/version', '/version/'] }),
    ]),
    // The user-facing roles, meant for RoleBindings (namespace admin, editor, viewer): each holds the
    // rules of the roles labelled to aggregate into it, so an extension adds to them by a label.
    // `view` is in `edit`, which is in `admin`. Upstream's rules, kept to the resources plat serves.
    aggregated('admin'),
    aggregated('edit', 'admin'),
    aggregated('view', 'edit'),
    aggregatesTo(clusterRole('system:aggregate-to-admin', [
      rule(['create'], { groups: [AUTHORIZATION], resources: ['localsubjectaccessreviews'] }),
      rule([...READ, ...WRITE], { groups: [RBAC_GROUP], resources: ['roles', 'rolebindings'] }),
    ]), 'admin'),
    aggregatesTo(clusterRole('system:aggregate-to-edit', [
      // Reading secrets or acting as a service account is power beyond viewing.
      rule(READ, { groups: [CORE], resources: ['secrets'] }),
      rule(['impersonate'], { groups: [CORE], resources: ['serviceaccounts'] }),
      rule(WRITE, { groups: [CORE], resources: ['pods'] }),
      rule(WRITE, { groups: [CORE], resources: ['serviceaccounts', 'secrets'] }),
      rule(['create'], { groups: [CORE], resources: ['serviceaccounts/token'] }),
    ]), 'edit'),
    aggregatesTo(clusterRole('system:aggregate-to-view', [
      rule(READ, { groups: [CORE], resources: ['pods', 'serviceaccounts'] }),
      rule(READ, { groups: [CORE], resources: ['events', 'namespaces/status'] }),
      // Reading namespaces at the namespace scope means reading *this* namespace.
      rule(READ, { groups: [CORE], resources: ['namespaces'] }),
    ]), 'view'),
    // For a server that delegates its authentication and authorization to this one (upstream's, unbound).
    clusterRole('system:auth-delegator', [
      rule(['create'], { groups: [AUTHENTICATION], resources: ['tokenreviews'] }),
      rule(['create'], { groups: [AUTHORIZATION], resources: ['subjectaccessreviews'] }),
    ]),
    clusterRole('system:service-account-issuer-discovery', [
      rule(['get'], { urls: ['/.well-known/openid-configuration', '/.well-known/openid-configuration/', '/openid/v1/jwks', '/openid/v1/jwks/'] }),
    ]),
    // Upstream's node rules for the resources plat serves: the Node authorizer narrows them to the node's own objects.
    clusterRole('system:node', [
      rule(['create'], { groups: [AUTHENTICATION], resources: ['tokenreviews'] }),
      rule(['create'], { groups: [AUTHORIZATION], resources: ['subjectaccessreviews', 'localsubjectaccessreviews'] }),
      rule(['create', 'get', 'list', 'watch'], { groups: [CORE], resources: ['nodes'] }),
      rule(['update', 'patch'], { groups: [CORE], resources: ['nodes/status'] }),
      rule(['update', 'patch'], { groups: [CORE], resources: ['nodes'] }),
      // NodeRules: the core group only, unlike the controllers' eventsRule.
      rule(['create', 'update', 'patch'], { groups: [CORE], resources: ['events'] }),
      rule(['create', 'get', 'list', 'watch'], { groups: [CERTIFICATES], resources: ['certificatesigningrequests'] }),
      rule(['get', 'create', 'update', 'patch', 'delete'], { groups: [COORDINATION], resources: ['leases'] }),
    ]),
    clusterRole('system:node-bootstrapper', [
      rule(['create', 'get', 'list', 'watch'], { groups: [CERTIFICATES], resources: ['certificatesigningrequests'] }),
    ]),
    clusterRole(NODE_CLIENT_ROLE, [rule(['create'], { groups: [CERTIFICATES], resources: ['certificatesigningrequests/nodeclient'] })]),
    clusterRole(SELF_NODE_CLIENT_ROLE, [rule(['create'], { groups: [CERTIFICATES], resources: ['certificatesigningrequests/selfnodeclient'] })]),
    approver('legacy-unknown-approver', SIGNER.legacyUnknown),
    approver('nodeagent-serving-approver', SIGNER.nodeagentServing),
    approver('apiserver-client-approver', SIGNER.apiserverClient),
    approver('apiserver-client-nodeagent-approver', SIGNER.apiserverClientNodeagent),
    clusterRole(CERTIFICATE_CONTROLLER, [
      rule(['get', 'list', 'watch', 'delete'], { groups: [CERTIFICATES], resources: ['certificatesigningrequests'] }),
      rule(['update'], { groups: [CERTIFICATES], resources: ['certificatesigningrequests/status', 'certificatesigningrequests/approval'] }),
      rule(['approve'], { groups: [CERTIFICATES], resources: ['signers'], names: [SIGNER.apiserverClientNodeagent] }),
      rule(['sign'], { groups: [CERTIFICATES], resources: ['signers'], names: [SIGNER.legacyUnknown, SIGNER.apiserverClient, SIGNER.apiserverClientNodeagent, SIGNER.nodeagentServing] }),
      rule(['create'], { groups: [AUTHORIZATION], resources: ['subjectaccessreviews'] }),
      eventsRule(),
    ]),
    // The namespace controller empties a namespace being deleted of every resource, then finalizes it.
    clusterRole(NAMESPACE_CONTROLLER, [
      rule(['get', 'list', 'watch', 'delete'], { groups: [CORE], resources: ['namespaces'] }),
      rule(['update'], { groups: [CORE], resources: ['namespaces/finalize', 'namespaces/status'] }),
      rule(['get', 'list', 'delete', 'deletecollection'], { groups: ['*'], resources: ['*'] }),
      eventsRule(),
    ]),
    // The service account controller makes each namespace's `default` ServiceAccount.
    clusterRole(SERVICE_ACCOUNT_CONTROLLER, [
      rule(['create'], { groups: [CORE], resources: ['serviceaccounts'] }),
      eventsRule(),
    ]),
    // The garbage collector watches every resource, reads owners, takes references and its
    // finalizers off (patch; update as upstream's role) and deletes dependents.
    clusterRole(GARBAGE_COLLECTOR, [
      rule(['get', 'list', 'watch', 'patch', 'update', 'delete'], { groups: ['*'], resources: ['*'] }),
      eventsRule(),
    ]),
    // It writes any rules into the roles it aggregates: escalate, rather than holding them all.
    clusterRole(CLUSTERROLE_AGGREGATION_CONTROLLER, [
      rule(['escalate', 'get', 'list', 'watch', 'update', 'patch'], { groups: [RBAC_GROUP], resources: ['clusterroles'] }),
    ]),
    // The node lifecycle controller marks nodes Unknown (nodes/status) and taints them (nodes); the
    // pod rules are upstream's (it marks pods on a dead node not ready), unused while plat runs no pods.
    clusterRole(NODE_CONTROLLER, [
      rule(['get', 'list', 'update', 'delete', 'patch'], { groups: [CORE], resources: ['nodes'] }),
      rule(['patch', 'update'], { groups: [CORE], resources: ['nodes/status'] }),
      rule(['patch', 'update'], { groups: [CORE], resources: ['pods/status'] }),
      rule(['list', 'get', 'delete'], { groups: [CORE], resources: ['pods'] }),
      eventsRule(),
    ]),
    // The legacy token cleaner labels unused auto-generated tokens invalid and deletes them later
    // (upstream's also reads its API servers' tracking ConfigMap, which plat has no need of).
    clusterRole(LEGACY_TOKEN_CLEANER, [
      rule(['patch', 'delete'], { groups: [CORE], resources: ['secrets'] }),
      eventsRule(),
    ]),
    // Upstream's role of the controller manager's own user: leader election, its informers, the
    // service accounts and tokens of --use-service-account-credentials, and its endpoint's reviews.
    // The controllers' writes need their own role (--use-service-account-credentials), as upstream.
    clusterRole(CONTROLLER_MANAGER_USER, [
      eventsRule(),
      rule(['create'], { groups: [COORDINATION], resources: ['leases'] }),
      rule(['get', 'update'], { groups: [COORDINATION], resources: ['leases'], names: [CONTROLLER_MANAGER_LEASE] }),
      rule(['create'], { groups: [CORE], resources: ['secrets', 'serviceaccounts'] }),
      rule(['delete'], { groups: [CORE], resources: ['secrets'] }),
      rule(['get'], { groups: [CORE], resources: ['configmaps', 'namespaces', 'secrets', 'serviceaccounts'] }),
      rule(['update'], { groups: [CORE], resources: ['secrets', 'serviceaccounts'] }),
      rule(['create'], { groups: [AUTHENTICATION], resources: ['tokenreviews'] }),
      rule(['create'], { groups: [AUTHORIZATION], resources: ['subjectaccessreviews'] }),
      rule(['list', 'watch'], { groups: ['*'], resources: ['*'] }),
      rule(['create'], { groups: [CORE], resources: ['serviceaccounts/token'] }),
    ]),
  ];
}

export function bootstrapClusterRoleBindings(): ClusterRoleBinding[] {
  return [
    binding('cluster-admin', 'cluster-admin', [group(MASTERS_GROUP)]),
    binding('system:monitoring', 'system:monitoring', [group(MONITORING_GROUP)]),
    binding('system:discovery', 'system:discovery', [group(AUTHENTICATED_GROUP)]),
    binding('system:basic-user', 'system:basic-user', [group(AUTHENTICATED_GROUP)]),
    binding('system:public-info-viewer', 'system:public-info-viewer', [group(AUTHENTICATED_GROUP), group(UNAUTHENTICATED_GROUP)]),
    binding('system:service-account-issuer-discovery', 'system:service-account-issuer-discovery', [group(SERVICE_ACCOUNTS_GROUP)]),
    // Upstream keeps it with no subjects: nodes get their rules from the Node authorizer.
    binding('system:node', 'system:node', []),
    binding(CERTIFICATE_CONTROLLER, CERTIFICATE_CONTROLLER, [serviceAccount(SYSTEM_NAMESPACE, 'certificate-controller')]),
    binding(NAMESPACE_CONTROLLER, NAMESPACE_CONTROLLER, [serviceAccount(SYSTEM_NAMESPACE, 'namespace-controller')]),
    binding(SERVICE_ACCOUNT_CONTROLLER, SERVICE_ACCOUNT_CONTROLLER, [serviceAccount(SYSTEM_NAMESPACE, 'service-account-controller')]),
    binding(GARBAGE_COLLECTOR, GARBAGE_COLLECTOR, [serviceAccount(SYSTEM_NAMESPACE, 'generic-garbage-collector')]),
    binding(CLUSTERROLE_AGGREGATION_CONTROLLER, CLUSTERROLE_AGGREGATION_CONTROLLER, [serviceAccount(SYSTEM_NAMESPACE, 'clusterrole-aggregation-controller')]),
    binding(NODE_CONTROLLER, NODE_CONTROLLER, [serviceAccount(SYSTEM_NAMESPACE, 'node-controller')]),
    binding(LEGACY_TOKEN_CLEANER, LEGACY_TOKEN_CLEANER, [serviceAccount(SYSTEM_NAMESPACE, 'legacy-service-account-token-cleaner')]),
    binding(CONTROLLER_MANAGER_USER, CONTROLLER_MANAGER_USER, [user(CONTROLLER_MANAGER_USER)]),
    // What kubeadm adds upstream (there for its own token group): TLS bootstrap and auto-approval.
    binding('plat:nodeagent-bootstrap', 'system:node-bootstrapper', [group(BOOTSTRAPPERS_GROUP)]),
    binding('plat:node-autoapprove-bootstrap', NODE_CLIENT_ROLE, [group(BOOTSTRAPPERS_GROUP)]),
    binding('plat:node-autoapprove-certificate-rotation', SELF_NODE_CLIENT_ROLE, [group(NODES_GROUP)]),
  ];
}

const role = (name: string, rules: PolicyRule[]): Role =>
  ({ apiVersion: `${RBAC_GROUP}/v1`, kind: 'Role', metadata: defaultsMeta(name, SYSTEM_NAMESPACE), rules });

const roleBinding = (name: string, role: string, subjects: Subject[]): RoleBinding => ({
  apiVersion: `${RBAC_GROUP}/v1`, kind: 'RoleBinding', metadata: defaultsMeta(name, SYSTEM_NAMESPACE),
  roleRef: { apiGroup: RBAC_GROUP, kind: 'Role', name: role },
  subjects,
});

/** Upstream's kube-system roles that plat needs, in plat-system. */
export function bootstrapNamespaceRoles(): Role[] {
  return [
    // The controller manager's endpoint looks its client CA and request-header settings up here.
    role(AUTHENTICATION_READER, [rule(['get', 'list', 'watch'], { groups: [CORE], resources: ['configmaps'], names: ['extension-apiserver-authentication'] })]),
    // Bootstrap tokens live in plat-system only: the token cleaner may delete no Secret elsewhere.
    role(TOKEN_CLEANER, [rule(['get', 'list', 'watch', 'delete'], { groups: [CORE], resources: ['secrets'] }), eventsRule()]),
  ];
}

export function bootstrapNamespaceRoleBindings(): RoleBinding[] {
  return [
    roleBinding(`system::${AUTHENTICATION_READER}`, AUTHENTICATION_READER, [user(CONTROLLER_MANAGER_USER)]),
    roleBinding(TOKEN_CLEANER, TOKEN_CLEANER, [serviceAccount(SYSTEM_NAMESPACE, 'token-cleaner')]),
  ];
}
