// Each role is a profile: the plugins the host loads for it, in order, and the spec's full flag
// catalogue (flags no plugin implements yet are listed in --help and refused if given).
import type { Profile } from '../core/boot.js';
import type { Plugin } from '../core/plugin.js';
import { ApiServerPlugin } from '../plugins/apiserver/index.js';
import { AdmissionControlPlugin } from '../plugins/admission-control/index.js';
import { AdmissionWebhookPlugin } from '../plugins/admission-webhook/index.js';
import { AuthenticationApiPlugin } from '../plugins/authentication-api/index.js';
import { AuthorizationApiPlugin } from '../plugins/authorization-api/index.js';
import { CoreResourcesPlugin } from '../plugins/core-resources/index.js';
import { CoordinationPlugin } from '../plugins/coordination/index.js';
import { NodesPlugin } from '../plugins/nodes/index.js';
import { BootstrapTokenAuthenticator } from '../plugins/authn-bootstrap-token/index.js';
import { AnonymousAuthenticator } from '../plugins/authn-anonymous/index.js';
import { OidcAuthenticator } from '../plugins/authn-oidc/index.js';
import { RequestHeaderAuthenticator } from '../plugins/authn-requestheader/index.js';
import { TokenFileAuthenticator } from '../plugins/authn-token-file/index.js';
import { ServiceAccountsPlugin } from '../plugins/serviceaccounts/index.js';
import { WebhookTokenAuthenticator } from '../plugins/authn-webhook-token/index.js';
import { X509Authenticator } from '../plugins/authn-x509/index.js';
import { AlwaysAllowAuthorizer, AlwaysDenyAuthorizer } from '../plugins/authz-always/index.js';
import { AlwaysAdmitAdmission, AlwaysDenyAdmission } from '../plugins/admission-always/index.js';
import { CertificateApprovalAdmission, CertificateSigningAdmission, CertificateSubjectRestrictionAdmission } from '../plugins/admission-certificates/index.js';
import { NodeRestrictionAdmission } from '../plugins/admission-noderestriction/index.js';
import { AbacAuthorizer } from '../plugins/authz-abac/index.js';
import { NodeAuthorizer } from '../plugins/authz-node/index.js';
import { WebhookAuthorizer } from '../plugins/authz-webhook/index.js';
import { AuthorizationConfigPlugin } from '../plugins/authorization-config/index.js';
import { CertificatesResourcePlugin } from '../plugins/certificates/plugin.js';
import { RbacAuthorizer, RbacPlugin } from '../plugins/rbac/index.js';
import { ClusterSigner, CsrSigningController } from '../plugins/csrsigning/index.js';
import { CsrApprovingController } from '../plugins/csrapproving/index.js';
import { CsrCleanerController } from '../plugins/csrcleaner/index.js';
import { ControllerManagerPlugin, EmbeddedControllerManagerPlugin } from '../plugins/controller-manager/index.js';
import { ControllerManagerServing } from '../plugins/controller-manager-serving/index.js';
import { NodeAgentIdentity } from '../plugins/nodeagent-identity/index.js';
import { NodeAgentNodePlugin } from '../plugins/nodeagent-node/index.js';
import { NodeAgentServer } from '../plugins/nodeagent-server/index.js';
import { NodeAgentStaticPods } from '../plugins/nodeagent-static-pods/index.js';
import { APISERVER_FLAG_SECTIONS, apiserverFlagCatalogue } from './flag-catalogue/apiserver.js';
import { CONTROLLER_MANAGER_FLAG_SECTIONS, controllerManagerFlagCatalogue, embeddedControllerManagerFlagCatalogue } from './flag-catalogue/controller-manager.js';
import { nodeAgentFlagCatalogue } from './flag-catalogue/nodeagent.js';
import { NodeAgentPlugin } from '../plugins/nodeagent/index.js';
import { ALL_IN_ONE_HELP_DEFAULTS, prepareAllInOne } from './roles/all.js';
import { prepareControllerManager } from './roles/controller-manager.js';
import { prepareNodeAgent } from './roles/nodeagent.js';

const apiserverPlugins: readonly Plugin[] = [
  ApiServerPlugin,
  AdmissionControlPlugin,
  CertificatesResourcePlugin,
  AuthenticationApiPlugin,
  AuthorizationApiPlugin,
  CoreResourcesPlugin,
  CoordinationPlugin,
  NodesPlugin,
  AdmissionWebhookPlugin,
  RbacPlugin,
  X509Authenticator,
  RequestHeaderAuthenticator,
  TokenFileAuthenticator,
  ServiceAccountsPlugin,
  BootstrapTokenAuthenticator,
  WebhookTokenAuthenticator,
  OidcAuthenticator,
  AnonymousAuthenticator,
  AlwaysAllowAuthorizer,
  AlwaysDenyAuthorizer,
  RbacAuthorizer,
  CertificateApprovalAdmission,
  CertificateSigningAdmission,
  CertificateSubjectRestrictionAdmission,
  NodeRestrictionAdmission,
  AlwaysAdmitAdmission,
  AlwaysDenyAdmission,
  AuthorizationConfigPlugin,
  NodeAuthorizer,
  AbacAuthorizer,
  WebhookAuthorizer,
];

/**
 * The controllers (each plugin registers its own through hooks.controllers). `plat
 * controller-manager` runs them with its API connection and endpoint; `plat all` runs the same
 * list inside the API server's process.
 */
export const controllerManagerPlugins: readonly Plugin[] = [CsrSigningController, ClusterSigner, CsrApprovingController, CsrCleanerController];

/**
 * `plat nodeagent`: the role (flags, configuration, context, running the subsystems), then the
 * subsystems, each registering itself through hooks.nodeAgent.
 */
export const nodeAgentPlugins: readonly Plugin[] = [NodeAgentPlugin, NodeAgentIdentity, NodeAgentNodePlugin, NodeAgentServer, NodeAgentStaticPods];

export const profiles: Record<string, Profile> = {
  apiserver: {
    role: 'apiserver',
    description: 'The API server validates and configures data for the certificates.platform API objects and serves them over HTTPS.',
    plugins: apiserverPlugins,
    catalogue: apiserverFlagCatalogue,
  },
  'controller-manager': {
    role: 'controller-manager',
    description: 'The controller manager runs the control loops of the certificates.platform API (signing, approving, cleaning) against the API server.',
    plugins: [ControllerManagerServing, ControllerManagerPlugin, ...controllerManagerPlugins],
    catalogue: controllerManagerFlagCatalogue,
    prepare: prepareControllerManager,
  },
  all: {
    role: 'all',
    description: 'All of plat in one process (the API server and the controller manager), everything under --data-dir: a CA, an admin kubeconfig and the store.',
    plugins: [...apiserverPlugins, EmbeddedControllerManagerPlugin, ...controllerManagerPlugins],
    catalogue: [...apiserverFlagCatalogue, ...embeddedControllerManagerFlagCatalogue],
    // The controller manager's own endpoint is not here; its client flags that remain are.
    helpSections: [...APISERVER_FLAG_SECTIONS, ...CONTROLLER_MANAGER_FLAG_SECTIONS.slice(1)],
    covers: ['apiserver', 'controller-manager'],
    // One machine, one user: listen on loopback only and require credentials, since the only
    // authorizer here allows everything. One controller manager, so no leader election.
    defaults: { 'bind-address': '127.0.0.1', 'anonymous-auth': false, 'leader-elect': false },
    helpDefaults: ALL_IN_ONE_HELP_DEFAULTS,
    prepare: prepareAllInOne,
  },
  nodeagent: {
    role: 'nodeagent',
    description: 'The node agent runs on each node: it owns the node\'s identity (TLS bootstrap, client and serving certificates), registers the node, keeps its lease and serves its endpoints. Its subsystems are plugins (hooks.nodeAgent); it runs no containers.',
    plugins: nodeAgentPlugins,
    catalogue: nodeAgentFlagCatalogue,
    argumentsCheck: 'kubelet',
    prepare: prepareNodeAgent,
  },
};

/** Roles of the design that later issues bring. */
export const upcomingRoles: Record<string, string> = {};
