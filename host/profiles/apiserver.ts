// `plat apiserver`: the API server and the plugins that serve, authenticate, authorize and admit.
// `plat all` runs the same list.
import type { Profile } from '../../core/boot.js';
import type { Plugin } from '../../core/plugin.js';
import { ApiServerPlugin } from '../../plugins/apiserver/index.js';
import { AuditLogPlugin } from '../../plugins/audit-log/index.js';
import { AuditWebhookPlugin } from '../../plugins/audit-webhook/index.js';
import { AdmissionControlPlugin } from '../../plugins/admission-control/index.js';
import { AdmissionWebhookPlugin } from '../../plugins/admission-webhook/index.js';
import { ApiExtensionsPlugin } from '../../plugins/apiextensions/index.js';
import { AuthenticationApiPlugin } from '../../plugins/authentication-api/index.js';
import { AuthorizationApiPlugin } from '../../plugins/authorization-api/index.js';
import { CoreResourcesPlugin } from '../../plugins/core-resources/index.js';
import { CoordinationPlugin } from '../../plugins/coordination/index.js';
import { EventsPlugin } from '../../plugins/events/index.js';
import { NodesPlugin } from '../../plugins/nodes/index.js';
import { BootstrapTokenAuthenticator } from '../../plugins/authn-bootstrap-token/index.js';
import { AnonymousAuthenticator } from '../../plugins/authn-anonymous/index.js';
import { OidcAuthenticator } from '../../plugins/authn-oidc/index.js';
import { RequestHeaderAuthenticator } from '../../plugins/authn-requestheader/index.js';
import { TokenFileAuthenticator } from '../../plugins/authn-token-file/index.js';
import { ServiceAccountsPlugin } from '../../plugins/serviceaccounts/index.js';
import { WebhookTokenAuthenticator } from '../../plugins/authn-webhook-token/index.js';
import { X509Authenticator } from '../../plugins/authn-x509/index.js';
import { AlwaysAllowAuthorizer, AlwaysDenyAuthorizer } from '../../plugins/authz-always/index.js';
import { AlwaysAdmitAdmission, AlwaysDenyAdmission } from '../../plugins/admission-always/index.js';
import { CertificateApprovalAdmission, CertificateSigningAdmission, CertificateSubjectRestrictionAdmission } from '../../plugins/admission-certificates/index.js';
import { NodeRestrictionAdmission } from '../../plugins/admission-noderestriction/index.js';
import { AbacAuthorizer } from '../../plugins/authz-abac/index.js';
import { NodeAuthorizer } from '../../plugins/authz-node/index.js';
import { WebhookAuthorizer } from '../../plugins/authz-webhook/index.js';
import { AuthorizationConfigPlugin } from '../../plugins/authorization-config/index.js';
import { CertificatesResourcePlugin } from '../../plugins/certificates/plugin.js';
import { RbacAuthorizer, RbacPlugin } from '../../plugins/rbac/index.js';
import { apiserverFlagCatalogue } from '../flag-catalogue/apiserver.js';

export const apiserverPlugins: readonly Plugin[] = [
  ApiServerPlugin,
  AuditLogPlugin,
  AuditWebhookPlugin,
  AdmissionControlPlugin,
  CertificatesResourcePlugin,
  AuthenticationApiPlugin,
  AuthorizationApiPlugin,
  CoreResourcesPlugin,
  CoordinationPlugin,
  EventsPlugin,
  NodesPlugin,
  AdmissionWebhookPlugin,
  ApiExtensionsPlugin,
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

export const apiserverProfile: Profile = {
  role: 'apiserver',
  description: 'The API server validates and configures data for the certificates.platform API objects and serves them over HTTPS.',
  plugins: apiserverPlugins,
  catalogue: apiserverFlagCatalogue,
};
