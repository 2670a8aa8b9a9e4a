// SelfSubjectRulesReview (may I, in this namespace? what may I do): the chain's rules for the caller
// (core/authz/rules-union.ts), as upstream's selfsubjectrulesreview REST answers them: a spec with no
// namespace is 400 `no namespace on request`; otherwise 201 with status.resourceRules,
// nonResourceRules (as the authorizers listed them: no compaction, no sorting; kubectl's can-i
// --list does its own), incomplete and evaluationError, and an empty spec (upstream answers a new
// object, not the one sent). Served under authorization.k8s.io too (a wire alias), where kubectl's
// typed client posts it, in protobuf. Mutating admission runs on it, validating admission does not
// (upstream's REST never calls its createValidation).
import { errors } from '../../core/api/errors.js';
import type { ApiObject } from '../../core/api/meta.js';
import { typeMetaProperties } from '../../core/api/object-meta-schema.js';
import { objectMeta, str, eachField } from '../../core/api/protobuf.js';
import { rulesFor } from '../../core/authz/authorize.js';
import type { NonResourceRuleInfo, ResourceRuleInfo } from '../../core/authz/rules.js';
import type { Host } from '../../core/host.js';
import type { JsonSchema, ResourceDefinition } from '../../core/registry/resource.js';
import type { Strategy } from '../../core/registry/strategy.js';

export type SelfSubjectRulesReview = ApiObject & { spec?: { namespace?: string } };

const strings = (description: string): JsonSchema => ({ type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'atomic', description });

const schema: JsonSchema = {
  type: 'object', 'x-go-type': 'v1.SelfSubjectRulesReview', required: ['spec'],
  description: 'SelfSubjectRulesReview enumerates the set of actions the current user can perform within a namespace. The returned list of actions may be incomplete depending on the server\'s authorization mode, and any errors experienced during the evaluation. SelfSubjectRulesReview should be used by UIs to show/hide actions, or to quickly let an end user reason about their permissions. It should NOT Be used by external systems to drive authorization decisions as this raises confused deputy, cache lifetime/revocation, and correctness concerns. SubjectAccessReview, and LocalAccessReview are the correct way to defer authorization decisions to the API server.',
  properties: {
    ...typeMetaProperties,
    spec: {
      type: 'object', 'x-go-type': 'v1.SelfSubjectRulesReviewSpec', description: 'Spec holds information about the request being evaluated.',
      properties: { namespace: { type: 'string', description: 'Namespace to evaluate rules for. Required.' } },
    },
    status: {
      type: 'object', 'x-go-type': 'v1.SubjectRulesReviewStatus', description: 'Status is filled in by the server and indicates the set of actions a user can perform.',
      properties: {
        resourceRules: {
          type: 'array', 'x-kubernetes-list-type': 'atomic', description: 'ResourceRules is the list of actions the subject is allowed to perform on resources. The list ordering isn\'t significant, may contain duplicates, and possibly be incomplete.',
          items: {
            type: 'object', 'x-go-type': 'v1.ResourceRule',
            properties: {
              verbs: strings('Verb is a list of kubernetes resource API verbs, like: get, list, watch, create, update, delete, proxy.  "*" means all.'),
              apiGroups: strings('APIGroups is the name of the APIGroup that contains the resources.  If multiple API groups are specified, any action requested against one of the enumerated resources in any API group will be allowed.  "*" means all.'),
              resources: strings('Resources is a list of resources this rule applies to.  "*" means all in the specified apiGroups.\n "*/foo" represents the subresource \'foo\' for all resources in the specified apiGroups.'),
              resourceNames: strings('ResourceNames is an optional white list of names that the rule applies to.  An empty set means that everything is allowed.  "*" means all.'),
            },
          },
        },
        nonResourceRules: {
          type: 'array', 'x-kubernetes-list-type': 'atomic', description: 'NonResourceRules is the list of actions the subject is allowed to perform on non-resources. The list ordering isn\'t significant, may contain duplicates, and possibly be incomplete.',
          items: {
            type: 'object', 'x-go-type': 'v1.NonResourceRule',
            properties: {
              verbs: strings('Verb is a list of kubernetes non-resource API verbs, like: get, post, put, delete, patch, head, options.  "*" means all.'),
              nonResourceURLs: strings('NonResourceURLs is a set of partial urls that a user should have access to.  *s are allowed, but only as the full, final step in the path.  "*" means all.'),
            },
          },
        },
        incomplete: { type: 'boolean', description: 'Incomplete is true when the rules returned by this call are incomplete. This is most commonly encountered when an authorizer, such as an external authorizer, doesn\'t support rules evaluation.' },
        evaluationError: { type: 'string', description: 'EvaluationError can appear in combination with Rules. It indicates an error occurred during rule evaluation, such as an authorizer that doesn\'t support rule evaluation, and that ResourceRules and/or NonResourceRules may be incomplete.' },
      },
    },
  },
};

/** Protobuf body (k8s.io/api/authorization/v1 generated.proto): metadata 1, spec 2 (namespace 1), status 3 (ignored, as the server fills it). */
function decodeProtobuf(raw: Buffer): ApiObject {
  const obj: SelfSubjectRulesReview = { metadata: {} };
  for (const f of eachField(raw)) {
    if (f.no === 1) obj.metadata = objectMeta(f.bytes!);
    else if (f.no === 2) {
      obj.spec = {};
      for (const s of eachField(f.bytes!)) if (s.no === 1) obj.spec.namespace = str(s);
    }
  }
  return obj;
}

// omitempty on every list but verbs; verbs are written even when null.
const nonEmpty = <K extends string>(key: K, v: readonly string[] | undefined) => (v?.length ? { [key]: v } as Record<K, readonly string[]> : {});
const resourceRule = (r: ResourceRuleInfo) =>
  ({ verbs: r.verbs ?? null, ...nonEmpty('apiGroups', r.apiGroups), ...nonEmpty('resources', r.resources), ...nonEmpty('resourceNames', r.resourceNames) });
const nonResourceRule = (r: NonResourceRuleInfo) => ({ verbs: r.verbs ?? null, ...nonEmpty('nonResourceURLs', r.nonResourceURLs) });

const reviewStrategy: Strategy = { validate: () => [], validateUpdate: () => [] };

export function selfSubjectRulesReviews(host: Host, group: string): ResourceDefinition<SelfSubjectRulesReview> {
  return {
    group, version: 'v1', verbs: ['create'], strategy: reviewStrategy, wireGroup: 'authorization.k8s.io',
    kind: 'SelfSubjectRulesReview', listKind: 'SelfSubjectRulesReviewList', plural: 'selfsubjectrulesreviews', singular: 'selfsubjectrulesreview',
    scope: 'Cluster', schema, description: schema.description!, decodeProtobuf, reviewSkipsValidatingAdmission: true,
    validateReview(_caller, obj) {
      if (!obj.spec?.namespace) throw errors.badRequest('no namespace on request');
    },
    review: async (caller, obj) => {
      const rules = await rulesFor(host, { user: caller.user, namespace: obj.spec!.namespace! });
      return {
        ...(obj.apiVersion ? { apiVersion: obj.apiVersion } : {}), ...(obj.kind ? { kind: obj.kind } : {}),
        metadata: { creationTimestamp: null }, spec: {},
        status: {
          resourceRules: rules.resourceRules.map(resourceRule), nonResourceRules: rules.nonResourceRules.map(nonResourceRule),
          incomplete: rules.incomplete, ...(rules.error !== undefined ? { evaluationError: rules.error } : {}),
        },
      } as SelfSubjectRulesReview;
    },
  };
}
