// What third-party plugins import (`import { errors } from 'plat'`): the plugin and hook types and
// the Status errors, and the crypto a signer plugin needs. Everything else in core/ is internal.
export type { Plugin } from './plugin.js';
export { StartupError } from './plugin.js';
export type { Host } from './host.js';
export type { Hooks, Configuration, StartContext } from './hooks.js';
export type { AdmissionRequest, AdmissionOperation } from './admission/request.js';
export type { Attributes, Decision } from './authz/attributes.js';
// Asking the authorizer chain (an admission plugin checking a verb): authorize(host, attributes).
export { authorize, isAllowed, rulesFor } from './authz/authorize.js';
// What an authorizer's `rulesFor` tap answers (SelfSubjectRulesReview, `kubectl auth can-i --list`).
export {
  ALL_RULES, NO_RULES, cannotListRules,
  type RulesQuery, type UserRules, type ResourceRuleInfo, type NonResourceRuleInfo, type ChainRules,
} from './authz/rules.js';
export type { RulesAnswers } from './authz/rules-union.js';
export { AuthorizationError, type NoOpinionReasons, type TapFailure } from './authz/union.js';
export type { UserInfo, AuthenticationRequest } from './authn/user.js';
// A token authenticator's error (upstream's token authenticator returning one): not followed by `invalid bearer token`.
export { rejectToken } from './authn/token-authentication.js';
export type { ClientAuthorities, ClientAuthority } from './authn/client-authorities.js';
export { fixed, derived, type Changing } from './tls/changing.js';
export type { SigningRequest, SigningResult } from './signing.js';
export type { ApiObject, ObjectMeta } from './api/meta.js';
// What `resources` and `controllers` taps are handed and register.
export type { ResourceRegistry, ResourceDefinition, JsonSchema, TableColumn, NonResourcePath } from './registry/resource.js';
export type { Strategy, StrategyContext, SubresourceDefinition } from './registry/strategy.js';
export type { ControllerRegistry, ControllerContext, Runnable, RegistrationOptions, SubsystemRegistry, Subsystem } from './lifecycle.js';
export type { InformerHandlers, DeletedFinalStateUnknown } from './controller/informer.js';
// What ctx.informers.for() takes: the resource to list and watch.
export type { ResourceRef } from './client/rest-client.js';
export type { AuditEvent, AuditLevel, AuditStage, AuditUser, AuditObjectRef, AuditResponseStatus } from './audit.js';
// An audit backend (a webhook, a queue): wrapped in the mode its flags name and tapped on hooks.audit.
export { tapAuditBackend, handlePluginError, AUDIT_MODES, type AuditBackend, type AuditMode, type BackendSettings } from './audit/backend.js';
export { eventJson, eventString } from './audit/format.js';
export type { BatchConfig } from './audit/buffered.js';
export type { TruncateConfig } from './audit/truncate.js';
export type { FlagSpec, FlagSet } from './flags/types.js';
export { errors, StatusError } from './api/errors.js';
export { fieldError } from './api/field-errors.js';
// Crypto for signer plugins (hooks.sign): read and check requests, make a CA, issue certificates.
export {
  CryptoError, parseCsr, verifyCsr, issueCertificate, createCertificate, parseCertificate, generateKeyPair,
  type IssuingCa, type IssuePolicy, type IssueResult, type ParsedCsr, type ParsedCertificate, type KeyType,
  // What createCertificate and generateKeyPair take and give, for a plugin's own helpers to name.
  type CreateCertificateOptions, type CertificateTemplate, type CertificateIssuer, type GeneratedKeyPair,
} from './crypto/index.js';
