// AuthorizationApiPlugin: authorization.platform/v1 SubjectAccessReview (may this user?),
// SelfSubjectAccessReview (may I?) and LocalSubjectAccessReview (may this user, in this
// namespace?), answered by the same authorizer chain that guards every request, with upstream's
// validation (pkg/apis/authorization/validation) and answers (allowed, denied, reason,
// evaluationError); and SelfSubjectRulesReview (what may I do here?), answered by the chain's
// rules (self-subject-rules-review.ts). All four are served under authorization.k8s.io too (a wire
// alias, JSON or protobuf bodies: protobuf.ts), where kubectl's `auth can-i` and other clients
// built for Kubernetes post them; upstream serves them all in that one group.
import { isGoEmptyValue } from '../../core/api/go-empty.js';
import { errors } from '../../core/api/errors.js';
import { appendErrors, fieldError, goQuote, type FieldError } from '../../core/api/field-errors.js';
import { goObjectMeta } from '../../core/api/go-object-meta.js';
import type { ApiObject } from '../../core/api/meta.js';
import type { UserInfo } from '../../core/authn/user.js';
import type { Attributes } from '../../core/authz/attributes.js';
import { authorize } from '../../core/authz/authorize.js';
import { AuthorizationError } from '../../core/authz/union.js';
import { selectorEvaluationNotes, selectorsFromReview, type SelectorAttributesWire } from '../../core/authz/selector-attributes.js';
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import type { ResourceDefinition, ReviewCaller } from '../../core/registry/resource.js';
import type { Strategy } from '../../core/registry/strategy.js';
import { decodeSelfSubjectAccessReview, decodeSubjectAccessReview } from './protobuf.js';
import { localSubjectAccessReviewSchema, selfSubjectAccessReviewSchema, subjectAccessReviewSchema } from './schemas.js';
import { selectorAttributesErrors } from './selector-validation.js';
import { selfSubjectRulesReviews } from './self-subject-rules-review.js';

const PLUGIN_NAME = 'AuthorizationApiPlugin';
export const AUTHORIZATION_GROUP = 'authorization.platform';
/** Where kubectl's and other clients' typed clients post the reviews (core/server/wire-alias.ts). */
const UPSTREAM_AUTHORIZATION_GROUP = 'authorization.k8s.io';

interface ResourceAttributes {
  namespace?: string; verb?: string; group?: string; version?: string; resource?: string; subresource?: string; name?: string;
  fieldSelector?: SelectorAttributesWire | null; labelSelector?: SelectorAttributesWire | null;
}
interface NonResourceAttributes { path?: string; verb?: string }
interface ReviewSpec {
  resourceAttributes?: ResourceAttributes | null;
  nonResourceAttributes?: NonResourceAttributes | null;
  user?: string; groups?: string[]; extra?: Record<string, string[]>; uid?: string;
}
type Review = ApiObject & { spec?: ReviewSpec };

const reviewStrategy: Strategy = { validate: () => [], validateUpdate: () => [] };

// field.Invalid of a struct prints Go's %#v of the internal type, fields in declaration order.
const invalidStruct = (field: string, rendered: string, detail: string): FieldError =>
  ({ type: 'FieldValueInvalid', field, message: `Invalid value: ${rendered}: ${detail}` });
const goNonResourceAttributes = (n: NonResourceAttributes): string =>
  `authorization.NonResourceAttributes{Path:${goQuote(n.path ?? '')}, Verb:${goQuote(n.verb ?? '')}}`;

/** The parts of ObjectMeta a review may carry: none (namespace for the local kind). */
function metadataErrors(meta: ApiObject['metadata'], allowNamespace: boolean): FieldError[] {
  // Semantic.DeepEqual with an empty ObjectMeta: zero values, and empty maps and slices, are unset.
  const set = Object.entries(meta).filter(([k, v]) => !isGoEmptyValue(v) && k !== 'managedFields' && !(allowNamespace && k === 'namespace'));
  if (set.length === 0) return [];
  return [invalidStruct('metadata', goObjectMeta(meta), allowNamespace ? 'must be empty except for namespace' : 'must be empty')];
}

function specErrors(spec: ReviewSpec, self: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const res = spec.resourceAttributes ?? undefined;
  const nonRes = spec.nonResourceAttributes ?? undefined;
  if (res && nonRes) errs.push(invalidStruct('spec.nonResourceAttributes', goNonResourceAttributes(nonRes), 'cannot be specified in combination with resourceAttributes'));
  if (!res && !nonRes) errs.push(fieldError.invalid('spec.resourceAttributes', 'null', 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  if (!self && !spec.user && !(spec.groups?.length)) errs.push(fieldError.invalid('spec.user', spec.user ?? '', 'at least one of user or group must be specified'));
  if (res) appendErrors(errs, selectorAttributesErrors(res));
  return errs;
}

function attributesOf(user: UserInfo, spec: ReviewSpec): Attributes {
  const r = spec.resourceAttributes;
  if (r) {
    const selectors = selectorsFromReview(r);
    return {
      // matchAllVersionIfEmpty: a review that names no version asks about all of them.
      user, verb: r.verb ?? '', isResourceRequest: true, path: '', apiGroup: r.group ?? '', apiVersion: r.version || '*',
      resource: r.resource ?? '', subresource: r.subresource ?? '', namespace: r.namespace ?? '', name: r.name ?? '',
      ...(selectors ? { selectors } : {}),
    };
  }
  const n = spec.nonResourceAttributes ?? {};
  return { user, verb: n.verb ?? '', isResourceRequest: false, path: n.path ?? '', apiGroup: '', apiVersion: '', resource: '', subresource: '', namespace: '', name: '' };
}

async function decide(host: Host, obj: Review, user: UserInfo, caller: ReviewCaller): Promise<ApiObject> {
  let status: Record<string, unknown>;
  // Asked with the review request's context, as upstream's REST Create hands Authorize its ctx.
  const attributes = { ...attributesOf(user, obj.spec ?? {}), ...(caller.signal ? { context: caller.signal } : {}) };
  // BuildEvaluationError: the authorizer's error, then what of the selectors went unused.
  const evaluation = (error?: string) => {
    const text = [...(error === undefined ? [] : [error]), ...selectorEvaluationNotes(attributes.selectors)].join('; ');
    return text ? { evaluationError: text } : {};
  };
  try {
    const d = await authorize(host, attributes);
    status = { allowed: d?.decision === 'allow', ...(d?.decision === 'deny' ? { denied: true } : {}), ...(d?.reason ? { reason: d.reason } : {}), ...evaluation(d?.decision === 'deny' ? d.error : undefined) };
  } catch (e) {
    // Upstream's review answers an authorizer error too: no decision, the no-opinion reasons, the error.
    const reason = e instanceof AuthorizationError ? e.reason : '';
    status = { allowed: false, ...(reason ? { reason } : {}), ...evaluation(e instanceof Error ? e.message : String(e)) };
  }
  return { ...obj, metadata: { ...obj.metadata, creationTimestamp: null }, status };
}

// Upstream's REST handlers build the GroupKind from the decoded internal object's Kind, which the
// conversion from the wire version leaves empty: `.authorization.k8s.io "" is invalid: ...`, no
// details.kind.
const invalid = (errs: FieldError[]) => errors.invalid({ group: AUTHORIZATION_GROUP, kind: '' }, '', errs);

function subjectOf(spec: ReviewSpec): UserInfo {
  return {
    name: spec.user ?? '', groups: [...(spec.groups ?? [])],
    ...(spec.uid ? { uid: spec.uid } : {}), ...(spec.extra && Object.keys(spec.extra).length ? { extra: spec.extra } : {}),
  };
}

export const AuthorizationApiPlugin: Plugin = {
  name: PLUGIN_NAME,
  calls: ['authorize', 'rulesFor'],
  apply(host: Host): void {
    host.hooks.resources.tap(PLUGIN_NAME, (registry) => {
      const base = { group: AUTHORIZATION_GROUP, version: 'v1', verbs: ['create'], strategy: reviewStrategy, wireGroup: UPSTREAM_AUTHORIZATION_GROUP } as const;
      const subjectAccessReviews: ResourceDefinition<Review> = {
        ...base, kind: 'SubjectAccessReview', listKind: 'SubjectAccessReviewList', plural: 'subjectaccessreviews', singular: 'subjectaccessreview',
        scope: 'Cluster', schema: subjectAccessReviewSchema, decodeProtobuf: decodeSubjectAccessReview, description: 'SubjectAccessReview checks whether or not a user or group can perform an action.',
        validateReview(_caller, obj) {
          const errs = [...specErrors(obj.spec ?? {}, false), ...metadataErrors(obj.metadata, false)];
          if (errs.length) throw invalid(errs);
        },
        review: async (caller, obj) => decide(host, obj, subjectOf(obj.spec ?? {}), caller),
      };
      const selfSubjectAccessReviews: ResourceDefinition<Review> = {
        ...base, kind: 'SelfSubjectAccessReview', listKind: 'SelfSubjectAccessReviewList', plural: 'selfsubjectaccessreviews', singular: 'selfsubjectaccessreview',
        scope: 'Cluster', schema: selfSubjectAccessReviewSchema, decodeProtobuf: decodeSelfSubjectAccessReview, description: 'SelfSubjectAccessReview checks whether or the current user can perform an action.',
        validateReview(_caller, obj) {
          const errs = [...specErrors(obj.spec ?? {}, true), ...metadataErrors(obj.metadata, false)];
          if (errs.length) throw invalid(errs);
        },
        review: async (caller, obj) => decide(host, obj, caller.user, caller),
      };
      const localSubjectAccessReviews: ResourceDefinition<Review> = {
        ...base, kind: 'LocalSubjectAccessReview', listKind: 'LocalSubjectAccessReviewList', plural: 'localsubjectaccessreviews', singular: 'localsubjectaccessreview',
        scope: 'Namespaced', schema: localSubjectAccessReviewSchema, decodeProtobuf: decodeSubjectAccessReview,
        description: 'LocalSubjectAccessReview checks whether or not a user or group can perform an action in a given namespace.',
        validateReview(caller, obj) {
          const spec = obj.spec ?? {};
          const errs = [...specErrors(spec, false), ...metadataErrors(obj.metadata, true)];
          if (spec.resourceAttributes && (spec.resourceAttributes.namespace ?? '') !== (obj.metadata.namespace ?? '')) {
            errs.push(fieldError.invalid('spec.resourceAttributes.namespace', spec.resourceAttributes.namespace ?? '', 'must match metadata.namespace'));
          }
          if (spec.nonResourceAttributes) errs.push(invalidStruct('spec.nonResourceAttributes', goNonResourceAttributes(spec.nonResourceAttributes), 'disallowed on this kind of request'));
          if (errs.length) throw invalid(errs);
          if (!caller.namespace) throw errors.badRequest(`namespace is required on this type: ${caller.namespace}`);
          // Mutating admission ran before this: it must not move the question to another namespace.
          if (caller.namespace !== obj.metadata.namespace) throw errors.badRequest(`spec.resourceAttributes.namespace must match namespace: ${caller.namespace}`);
        },
        review: async (caller, obj) => decide(host, obj, subjectOf(obj.spec ?? {}), caller),
      };
      registry.register(subjectAccessReviews);
      registry.register(selfSubjectAccessReviews);
      registry.register(localSubjectAccessReviews);
      registry.register(selfSubjectRulesReviews(host, AUTHORIZATION_GROUP));
    });
  },
};
