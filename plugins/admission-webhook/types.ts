// admissionregistration.platform/v1 ValidatingWebhookConfiguration and MutatingWebhookConfiguration
// as they travel on the wire (upstream's admissionregistration/v1 types, renamed group).
import type { ApiObject } from '../../core/api/meta.js';

export const GROUP = 'admissionregistration.platform';
export const VERSION = 'v1';

export interface LabelSelectorRequirement { key: string; operator: string; values?: string[] }
export interface LabelSelector { matchLabels?: Record<string, string>; matchExpressions?: LabelSelectorRequirement[] }

export interface ServiceReference { namespace?: string; name?: string; path?: string; port?: number }

export interface WebhookClientConfig {
  url?: string;
  service?: ServiceReference;
  /** Base64 of PEM CA certificates (a `[]byte` field). */
  caBundle?: string;
}

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT' | '*';
export type Scope = 'Cluster' | 'Namespaced' | '*';

export interface RuleWithOperations {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: string;
}

export interface MatchCondition { name?: string; expression?: string }

export interface Webhook {
  name?: string;
  clientConfig?: WebhookClientConfig;
  rules?: RuleWithOperations[];
  failurePolicy?: string;
  matchPolicy?: string;
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  sideEffects?: string;
  timeoutSeconds?: number;
  admissionReviewVersions?: string[];
  matchConditions?: MatchCondition[];
  /** Mutating webhooks only. */
  reinvocationPolicy?: string;
}

export interface WebhookConfiguration extends ApiObject {
  webhooks?: Webhook[];
}

export type WebhookKind = 'ValidatingWebhookConfiguration' | 'MutatingWebhookConfiguration';

export const FAILURE_POLICIES = ['Fail', 'Ignore'] as const;
export const MATCH_POLICIES = ['Equivalent', 'Exact'] as const;
export const SIDE_EFFECT_CLASSES = ['None', 'NoneOnDryRun', 'Some', 'Unknown'] as const;
export const NO_SIDE_EFFECT_CLASSES = ['None', 'NoneOnDryRun'] as const;
export const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'] as const;
export const SCOPES = ['*', 'Cluster', 'Namespaced'] as const;
export const REINVOCATION_POLICIES = ['IfNeeded', 'Never'] as const;
/** The AdmissionReview versions this server sends, in preference order. */
export const ADMISSION_REVIEW_VERSIONS = ['v1', 'v1beta1'] as const;
