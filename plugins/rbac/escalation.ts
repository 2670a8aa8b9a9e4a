// Privilege-escalation prevention (pkg/registry/rbac/*/policybased, escalation_check.go): a user
// may write a role only with permissions they already hold, unless allowed `escalate` on it; and
// a binding only to a role whose permissions they hold, unless allowed `bind` on it. Members of
// system:masters are exempt. Runs when the write reaches storage, after mutating admission and
// before validation, as upstream's policy-based storage does.
import { isDeepStrictEqual } from 'node:util';
import { errors } from '../../core/api/errors.js';
import { goQuote } from '../../core/api/field-errors.js';
import type { ApiObject } from '../../core/api/meta.js';
import type { AdmissionRequest } from '../../core/admission/request.js';
import type { Attributes } from '../../core/authz/attributes.js';
import { AuthorizationError } from '../../core/authz/union.js';
import type { Logger } from '../../core/log.js';
import { MASTERS_GROUP, type UserInfo } from '../../core/authn/user.js';
import { defaultRoleRef } from './defaults.js';
import { aggregateText, type RuleResolver } from './resolver.js';
import { compactRules, compactString, covers, goQuoteList } from './rules.js';
import { RBAC_GROUP, type ClusterRole, type PolicyRule, type RoleBinding, type RoleRef } from './types.js';
import { roleRefKinds } from './validation.js';

const ROLE_RESOURCES = new Set(['roles', 'clusterroles']);
const BINDING_RESOURCES = new Set(['rolebindings', 'clusterrolebindings']);

/** The rules that only a user holding everything may put into an aggregating ClusterRole. */
const FULL_AUTHORITY: readonly PolicyRule[] = [
  { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
  { nonResourceURLs: ['*'], verbs: ['*'] },
];

const escalationAllowed = (user: UserInfo): boolean => user.groups.includes(MASTERS_GROUP);

/** ConfirmNoEscalation: the error text when the user's rules in `namespace` do not cover `rules`. */
export async function missingPermissions(resolver: RuleResolver, user: UserInfo, namespace: string, rules: readonly PolicyRule[]): Promise<string | undefined> {
  const owned = await resolver.rulesFor(user, namespace);
  const { covered, missing } = covers(owned.rules, rules);
  if (covered) return undefined;
  const lines = [...new Set(compactRules(missing).map(compactString))].sort();
  let msg = `user ${goQuote(user.name)} (groups=${goQuoteList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`;
  if (owned.errors.length) msg += `; resolution errors: [${aggregateText(owned.errors)}]`;
  return msg;
}

/**
 * IsOnlyMutatingGCFields: the update changes nothing but ownerReferences and finalizers (and the
 * managedFields that change with them, which upstream's copies over too).
 */
function onlyGcFields(obj: ApiObject, old: ApiObject): boolean {
  const copy = structuredClone(obj);
  for (const f of ['ownerReferences', 'finalizers', 'selfLink', 'managedFields'] as const) {
    if (old.metadata[f] === undefined) delete copy.metadata[f];
    else (copy.metadata as Record<string, unknown>)[f] = old.metadata[f];
  }
  const plain = (o: unknown) => JSON.parse(JSON.stringify(o)) as unknown;
  return isDeepStrictEqual(plain(copy), plain(old));
}

const hasAggregationRule = (r: ClusterRole | undefined): boolean => (r?.aggregationRule?.clusterRoleSelectors?.length ?? 0) > 0;

/**
 * Whether the chain allows `attrs`. As RoleEscalationAuthorized and BindingAuthorized: an
 * authorizer's error is logged and is not an allow, so the check of the user's own rules decides.
 */
async function allowed(req: AdmissionRequest, attrs: Omit<Attributes, 'user'>, what: string, log: Logger): Promise<boolean> {
  try {
    return (await req.authorize(attrs))?.decision === 'allow';
  } catch (e) {
    if (!(e instanceof AuthorizationError)) throw e;
    log.error('Unhandled Error', { err: `error authorizing user ${goQuote(req.user.name)} to ${what}: ${e.message}`, authorizers: e.describe() });
    return false;
  }
}

/** RoleEscalationAuthorized: `escalate` on the role resource, named as the URL names it (a POST names none). */
function escalateAllowed(req: AdmissionRequest, log: Logger): Promise<boolean> {
  const name = req.requestName;
  return allowed(req, {
    verb: 'escalate', isResourceRequest: true, path: '', apiGroup: req.group, apiVersion: '*', resource: req.resource,
    subresource: '', namespace: req.namespace, name,
  }, `escalate ${req.resource} named ${goQuote(name)} in namespace ${goQuote(req.namespace)}`, log);
}

/** BindingAuthorized: `bind` on the referenced role, in the binding's namespace. */
async function bindAllowed(req: AdmissionRequest, ref: RoleRef, log: Logger): Promise<boolean> {
  const resource = ref.kind === 'ClusterRole' ? 'clusterroles' : ref.kind === 'Role' ? 'roles' : undefined;
  if (!resource) return false;
  return allowed(req, {
    verb: 'bind', isResourceRequest: true, path: '', apiGroup: ref.apiGroup ?? '', apiVersion: '*', resource,
    subresource: '', namespace: req.namespace, name: ref.name ?? '',
  }, `bind ${ref.kind} ${goQuote(ref.name ?? '')} in namespace ${req.namespace}`, log);
}

async function checkRole(resolver: RuleResolver, req: AdmissionRequest, obj: ClusterRole, log: Logger): Promise<void> {
  if (await escalateAllowed(req, log)) return;
  const old = req.oldObject as ClusterRole | undefined;
  if (old && onlyGcFields(obj, old)) return;
  const qualified = { group: RBAC_GROUP, resource: req.resource };
  const name = obj.metadata.name ?? '';
  const missing = await missingPermissions(resolver, req.user, req.namespace, obj.rules ?? []);
  if (missing) throw errors.forbidden(qualified, name, missing);
  // An aggregation rule can gather anything (and keep a role from tightening): it needs everything.
  if (req.resource === 'clusterroles' && (hasAggregationRule(obj) || hasAggregationRule(old))) {
    if (await missingPermissions(resolver, req.user, req.namespace, FULL_AUTHORITY)) {
      throw errors.forbidden(qualified, name, 'must have cluster-admin privileges to use the aggregationRule');
    }
  }
}

async function checkBinding(resolver: RuleResolver, req: AdmissionRequest, obj: RoleBinding, log: Logger): Promise<void> {
  const ref = defaultRoleRef(obj.roleRef);
  // Upstream's resolver looks the role up by kind and name whatever the apiGroup, so a binding
  // whose group validation would refuse is still answered 403 first. A kind or name it cannot
  // resolve is left to the 422 (upstream answers some of these with a 500 from the resolver).
  if (!roleRefKinds(req.resource === 'rolebindings').includes(ref.kind ?? '') || !ref.name) return;
  if (req.oldObject && onlyGcFields(obj, req.oldObject)) return;
  if (await bindAllowed(req, ref, log)) return;
  const rules = await resolver.roleReferenceRules(ref, req.namespace);
  const missing = await missingPermissions(resolver, req.user, req.namespace, rules);
  if (missing) throw errors.forbidden({ group: RBAC_GROUP, resource: req.resource }, obj.metadata.name ?? '', missing);
}

/** The admitMutate tap: runs last in the mutating phase, on creates and updates of the four RBAC resources. */
export function escalationCheck(resolver: RuleResolver, log: Logger) {
  return async (req: AdmissionRequest): Promise<void> => {
    if (req.group !== RBAC_GROUP || req.subresource || (req.operation !== 'CREATE' && req.operation !== 'UPDATE')) return;
    if (!req.object || escalationAllowed(req.user)) return;
    if (ROLE_RESOURCES.has(req.resource)) await checkRole(resolver, req, req.object as ClusterRole, log);
    else if (BINDING_RESOURCES.has(req.resource)) await checkBinding(resolver, req, req.object as RoleBinding, log);
  };
}
