// JSON schemas of ValidatingWebhookConfiguration and MutatingWebhookConfiguration (upstream's
// OpenAPI for admissionregistration/v1, renamed group). They drive decoding (types, unknown
// fields), strategic merge patch (webhooks and matchConditions are maps keyed by name) and
// `kubectl explain`; the field rules with their 422 messages live in validation.ts.
import { typeMetaProperties } from '../../core/api/object-meta-schema.js';
import type { JsonSchema } from '../../core/registry/resource.js';

const strings = (description: string, listType: 'atomic' | 'set' = 'atomic'): JsonSchema =>
  ({ type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': listType, description });

const labelSelector = (description: string): JsonSchema => ({
  type: 'object',
  'x-go-type': 'v1.LabelSelector',
  description,
  'x-kubernetes-map-type': 'atomic',
  properties: {
    matchLabels: { type: 'object', additionalProperties: { type: 'string' }, description: 'matchLabels is a map of {key,value} pairs. A single {key,value} in the matchLabels map is equivalent to an element of matchExpressions, whose key field is "key", the operator is "In", and the values array contains only "value". The requirements are ANDed.' },
    matchExpressions: {
      type: 'array',
      'x-kubernetes-list-type': 'atomic',
      description: 'matchExpressions is a list of label selector requirements. The requirements are ANDed.',
      items: {
        type: 'object',
        'x-go-type': 'v1.LabelSelectorRequirement',
        required: ['key', 'operator'],
        description: 'A label selector requirement is a selector that contains values, a key, and an operator that relates the key and values.',
        properties: {
          key: { type: 'string', description: 'key is the label key that the selector applies to.' },
          operator: { type: 'string', 'x-go-type': 'v1.LabelSelectorOperator', description: "operator represents a key's relationship to a set of values. Valid operators are In, NotIn, Exists and DoesNotExist." },
          values: strings('values is an array of string values. If the operator is In or NotIn, the values array must be non-empty. If the operator is Exists or DoesNotExist, the values array must be empty.'),
        },
      },
    },
  },
});

const clientConfig: JsonSchema = {
  type: 'object',
  'x-go-type': 'v1.WebhookClientConfig',
  description: 'ClientConfig defines how to communicate with the hook. Required',
  properties: {
    url: {
      type: 'string',
      description: '`url` gives the location of the webhook, in standard URL form (`scheme://host:port/path`). Exactly one of `url` or `service` must be specified.\n\n'
        + 'The `host` should not refer to a service running in the cluster; use the `service` field instead. The scheme must be "https"; the URL must begin with "https://".\n\n'
        + 'A path is optional, and if present may be any string permissible in a URL. You may use the path to pass an arbitrary string to the webhook, for example, a cluster identifier.\n\n'
        + 'Attempting to use a user or basic auth e.g. "user:password@" is not allowed. Fragments ("#...") and query parameters ("?...") are not allowed, either.',
    },
    service: {
      type: 'object',
      'x-go-type': 'v1.ServiceReference',
      required: ['namespace', 'name'],
      description: '`service` is a reference to the service for this webhook. Either `service` or `url` must be specified.\n\nIf the webhook is running within the cluster, then you should use `service`.',
      properties: {
        namespace: { type: 'string', description: '`namespace` is the namespace of the service. Required' },
        name: { type: 'string', description: '`name` is the name of the service. Required' },
        path: { type: 'string', description: '`path` is an optional URL path which will be sent in any request to this service.' },
        port: { type: 'integer', format: 'int32', description: 'If specified, the port on the service that hosting webhook. Default to 443 for backward compatibility. `port` should be a valid port number (1-65535, inclusive).' },
      },
    },
    caBundle: { type: 'string', format: 'byte', description: "`caBundle` is a PEM encoded CA bundle which will be used to validate the webhook's server certificate. If unspecified, system trust roots on the apiserver are used." },
  },
};

// Rule is embedded inline in RuleWithOperations, so its fields are reported as the outer struct's.
const rule: JsonSchema = {
  type: 'object',
  'x-go-type': 'v1.RuleWithOperations',
  description: 'RuleWithOperations is a tuple of Operations and Resources. It is recommended to make sure that all the tuple expansions are valid.',
  properties: {
    operations: { ...strings('Operations is the operations the admission hook cares about - CREATE, UPDATE, DELETE, CONNECT or * for all of those operations and any future admission operations that are added. If \'*\' is present, the length of the slice must be one. Required.'), items: { type: 'string', 'x-go-type': 'v1.OperationType' } },
    apiGroups: strings('APIGroups is the API groups the resources belong to. \'*\' is all groups. If \'*\' is present, the length of the slice must be one. Required.'),
    apiVersions: strings('APIVersions is the API versions the resources belong to. \'*\' is all versions. If \'*\' is present, the length of the slice must be one. Required.'),
    resources: strings('Resources is a list of resources this rule applies to.\n\nFor example: \'pods\' means pods. \'pods/log\' means the log subresource of pods. \'*\' means all resources, but not subresources. \'pods/*\' means all subresources of pods. \'*/scale\' means all scale subresources. \'*/*\' means all resources and their subresources.\n\nIf wildcard is present, the validation rule will ensure resources do not overlap with each other.\n\nDepending on the enclosing object, subresources might not be allowed. Required.'),
    scope: { type: 'string', 'x-go-type': 'v1.ScopeType', description: 'scope specifies the scope of this rule. Valid values are "Cluster", "Namespaced", and "*". "Cluster" means that only cluster-scoped resources will match this rule. Namespace API objects are cluster-scoped. "Namespaced" means that only namespaced resources will match this rule. "*" means that there are no scope restrictions. Subresources match the scope of their parent resource. Default is "*".' },
  },
};

const matchCondition: JsonSchema = {
  type: 'object',
  'x-go-type': 'v1.MatchCondition',
  required: ['name', 'expression'],
  description: 'MatchCondition represents a condition which must by fulfilled for a request to be sent to a webhook.',
  properties: {
    name: { type: 'string', description: 'Name is an identifier for this match condition, used for strategic merging of MatchConditions, as well as providing an identifier for logging purposes. A good name should be descriptive of the associated expression. Name must be a qualified name consisting of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\') with an optional DNS subdomain prefix and \'/\' (e.g. \'example.com/MyName\')\n\nRequired.' },
    expression: { type: 'string', description: "Expression represents the expression which will be evaluated by CEL. Must evaluate to bool. CEL expressions have access to the contents of the AdmissionRequest and Authorizer, organized into CEL variables:\n\n'object' - The object from the incoming request. The value is null for DELETE requests. 'oldObject' - The existing object. The value is null for CREATE requests. 'request' - Attributes of the admission request(/pkg/apis/admission/types.go#AdmissionRequest). 'authorizer' - A CEL Authorizer. May be used to perform authorization checks for the principal (user or service account) of the request.\n  See https://pkg.go.dev/k8s.io/apiserver/pkg/cel/library#Authz\n'authorizer.requestResource' - A CEL ResourceCheck constructed from the 'authorizer' and configured with the\n  request resource.\nDocumentation on CEL: https://kubernetes.io/docs/reference/using-api/cel/\n\nRequired." },
  },
};

function webhookSchema(mutating: boolean): JsonSchema {
  const properties: Record<string, JsonSchema> = {
    name: { type: 'string', description: 'The name of the admission webhook. Name should be fully qualified, e.g., imagepolicy.kubernetes.io, where "imagepolicy" is the name of the webhook, and kubernetes.io is the name of the organization. Required.' },
    clientConfig,
    rules: { type: 'array', items: rule, 'x-kubernetes-list-type': 'atomic', description: 'Rules describes what operations on what resources/subresources the webhook cares about. The webhook cares about an operation if it matches _any_ Rule. Webhooks are never called for requests on ValidatingWebhookConfiguration and MutatingWebhookConfiguration objects.' },
    failurePolicy: { type: 'string', 'x-go-type': 'v1.FailurePolicyType', description: 'FailurePolicy defines how unrecognized errors from the admission endpoint are handled - allowed values are Ignore or Fail. Defaults to Fail.' },
    matchPolicy: { type: 'string', 'x-go-type': 'v1.MatchPolicyType', description: 'matchPolicy defines how the "rules" list is used to match incoming requests. Allowed values are "Exact" or "Equivalent". Defaults to "Equivalent"' },
    namespaceSelector: labelSelector('NamespaceSelector decides whether to run the webhook on an object based on whether the namespace for that object matches the selector. If the object itself is a namespace, the matching is performed on object.metadata.labels. If the object is another cluster scoped resource, it never skips the webhook. Default to the empty LabelSelector, which matches everything.'),
    objectSelector: labelSelector('ObjectSelector decides whether to run the webhook based on if the object has matching labels. objectSelector is evaluated against both the oldObject and newObject that would be sent to the webhook, and is considered to match if either object matches the selector. A null object (oldObject in the case of create, or newObject in the case of delete) or an object that cannot have labels is not considered to match. Default to the empty LabelSelector, which matches everything.'),
    sideEffects: { type: 'string', 'x-go-type': 'v1.SideEffectClass', description: 'SideEffects states whether this webhook has side effects. Acceptable values are: None, NoneOnDryRun (webhooks created via v1beta1 may also specify Some or Unknown). Webhooks with side effects MUST implement a reconciliation system, since a request may be rejected by a future step in the admission chain and the side effects therefore need to be undone. Requests with the dryRun attribute will be auto-rejected if they match a webhook with sideEffects == Unknown or Some.' },
    timeoutSeconds: { type: 'integer', format: 'int32', description: 'TimeoutSeconds specifies the timeout for this webhook. After the timeout passes, the webhook call will be ignored or the API call will fail based on the failure policy. The timeout value must be between 1 and 30 seconds. Default to 10 seconds.' },
    admissionReviewVersions: strings('AdmissionReviewVersions is an ordered list of preferred `AdmissionReview` versions the Webhook expects. API server will try to use first version in the list which it supports. If none of the versions specified in this list supported by API server, validation will fail for this object. If a persisted webhook configuration specifies allowed versions and does not include any versions known to the API Server, calls to the webhook will fail and be subject to the failure policy.'),
    matchConditions: {
      type: 'array', items: matchCondition,
      'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'],
      'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'name',
      description: 'MatchConditions is a list of conditions that must be met for a request to be sent to this webhook. Match conditions filter requests that have already been matched by the rules, namespaceSelector, and objectSelector. An empty list of matchConditions matches all requests. There are a maximum of 64 match conditions allowed.\n\nThe exact matching logic is (in order):\n  1. If ANY matchCondition evaluates to FALSE, the webhook is skipped.\n  2. If ALL matchConditions evaluate to TRUE, the webhook is called.\n  3. If any matchCondition evaluates to an error (but none are FALSE):\n     - If failurePolicy=Fail, reject the request\n     - If failurePolicy=Ignore, the error is ignored and the webhook is skipped',
    },
  };
  if (mutating) {
    properties['reinvocationPolicy'] = { type: 'string', 'x-go-type': 'v1.ReinvocationPolicyType', description: 'reinvocationPolicy indicates whether this webhook should be called multiple times as part of a single admission evaluation. Allowed values are "Never" and "IfNeeded".\n\nNever: the webhook will not be called more than once in a single admission evaluation.\n\nIfNeeded: the webhook will be called at least one additional time as part of the admission evaluation if the object being admitted is modified by other admission plugins after the initial webhook call. Webhooks that specify this option *must* be idempotent, able to process objects they previously admitted. Note: * the number of additional invocations is not guaranteed to be exactly one. * if additional invocations result in further modifications to the object, webhooks are not guaranteed to be invoked again. * webhooks that use this option may be reordered to minimize the number of additional invocations. * to validate an object after all mutations are guaranteed complete, use a validating admission webhook instead.\n\nDefaults to "Never".' };
  }
  return {
    type: 'object',
    'x-go-type': mutating ? 'v1.MutatingWebhook' : 'v1.ValidatingWebhook',
    required: ['name', 'clientConfig', 'sideEffects', 'admissionReviewVersions'],
    description: `${mutating ? 'MutatingWebhook' : 'ValidatingWebhook'} describes an admission webhook and the resources and operations it applies to.`,
    properties,
  };
}

export const VALIDATING_DESCRIPTION = 'ValidatingWebhookConfiguration describes the configuration of and admission webhook that accept or reject and object without changing it.';
export const MUTATING_DESCRIPTION = 'MutatingWebhookConfiguration describes the configuration of and admission webhook that accept or reject and may change the object.';

function configurationSchema(mutating: boolean): JsonSchema {
  return {
    type: 'object',
    'x-go-type': mutating ? 'v1.MutatingWebhookConfiguration' : 'v1.ValidatingWebhookConfiguration',
    description: mutating ? MUTATING_DESCRIPTION : VALIDATING_DESCRIPTION,
    properties: {
      ...typeMetaProperties,
      webhooks: {
        type: 'array',
        items: webhookSchema(mutating),
        'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'],
        'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'name',
        description: `Webhooks is a list of webhooks and the affected resources and operations.`,
      },
    },
  };
}

export const validatingConfigurationSchema = configurationSchema(false);
export const mutatingConfigurationSchema = configurationSchema(true);
