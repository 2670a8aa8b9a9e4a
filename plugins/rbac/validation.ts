// Field validation of the four RBAC kinds, as pkg/apis/rbac/validation (ObjectMeta and names are
// checked by the generic store: RBAC names are path segments only, upstream's ValidateRBACName).
import { fieldError, goQuote, validateEach, type FieldError } from '../../core/api/field-errors.js';
import { goStrings } from '../../core/api/go-object-meta.js';
import { labelSelectorFromObject, type LabelSelectorObject } from '../../core/api/selectors/label-selector.js';
import { dns1123SubdomainErrors, labelValueErrors, qualifiedNameErrors } from '../../core/api/selectors/label-syntax.js';
import { pathSegmentNameErrors } from '../../core/registry/object-meta.js';
import {
  GROUP_KIND, RBAC_GROUP, SERVICE_ACCOUNT_KIND, USER_KIND,
  type ClusterRole, type PolicyRule, type Role, type RoleBinding, type RoleRef, type Subject,
} from './types.js';

const len = (v: readonly unknown[] | undefined): number => v?.length ?? 0;

/** Go's `%#v` of the internal rbac.RoleRef, as `cannot change roleRef` prints it. */
export const goRoleRef = (r: RoleRef): string =>
  `rbac.RoleRef{APIGroup:${goQuote(r.apiGroup ?? '')}, Kind:${goQuote(r.kind ?? '')}, Name:${goQuote(r.name ?? '')}}`;

const invalidRaw = (field: string, rendered: string, detail: string): FieldError =>
  ({ type: 'FieldValueInvalid', field, message: `Invalid value: ${rendered}: ${detail}` });

export function validatePolicyRule(rule: PolicyRule, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (len(rule.verbs) === 0) errs.push(fieldError.required(`${path}.verbs`, 'verbs must contain at least one value'));
  if (len(rule.nonResourceURLs) > 0) {
    const urls = goStrings(rule.nonResourceURLs!);
    if (namespaced) errs.push(invalidRaw(`${path}.nonResourceURLs`, urls, 'namespaced rules cannot apply to non-resource URLs'));
    if (len(rule.apiGroups) > 0 || len(rule.resources) > 0 || len(rule.resourceNames) > 0) {
      errs.push(invalidRaw(`${path}.nonResourceURLs`, urls, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errs;
  }
  if (len(rule.apiGroups) === 0) errs.push(fieldError.required(`${path}.apiGroups`, 'resource rules must supply at least one api group'));
  if (len(rule.resources) === 0) errs.push(fieldError.required(`${path}.resources`, 'resource rules must supply at least one resource'));
  return errs;
}

const validateRules = (rules: readonly PolicyRule[] | null | undefined, namespaced: boolean): FieldError[] =>
  validateEach([], rules, (r, i) => validatePolicyRule(r, namespaced, `rules[${i}]`));

export const validateRole = (role: Role): FieldError[] => validateRules(role.rules, true);

/** ValidateLabelSelector (meta/v1/validation), then the selector must convert. */
function validateLabelSelector(sel: LabelSelectorObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) {
    for (const msg of qualifiedNameErrors(k)) errs.push(fieldError.invalid(`${path}.matchLabels`, k, msg));
    for (const msg of labelValueErrors(v)) errs.push(fieldError.invalid(`${path}.matchLabels`, v, msg));
  }
  validateEach(errs, sel.matchExpressions, (expr, i) => {
    const at = `${path}.matchExpressions[${i}]`;
    switch (expr.operator) {
      case 'In': case 'NotIn':
        if (len(expr.values) === 0) errs.push(fieldError.required(`${at}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
        break;
      case 'Exists': case 'DoesNotExist':
        if (len(expr.values) > 0) errs.push(fieldError.forbidden(`${at}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        break;
      default:
        errs.push(fieldError.invalid(`${at}.operator`, expr.operator ?? '', 'not a valid selector operator'));
    }
    for (const msg of qualifiedNameErrors(expr.key ?? '')) errs.push(fieldError.invalid(`${at}.key`, expr.key ?? '', msg));
    validateEach(errs, expr.values, (v, j) => labelValueErrors(v).map((msg) => fieldError.invalid(`${at}.values[${j}]`, v, msg)));
  });
  try { labelSelectorFromObject(sel); } catch { errs.push(fieldError.invalid(path, 'null', 'invalid label selector.')); }
  return errs;
}

export function validateClusterRole(role: ClusterRole): FieldError[] {
  const errs = validateRules(role.rules, false);
  const agg = role.aggregationRule;
  if (agg !== undefined && agg !== null) {
    const selectors = agg.clusterRoleSelectors ?? [];
    const path = 'aggregationRule.clusterRoleSelectors';
    if (selectors.length === 0) errs.push(fieldError.required(path, 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
    validateEach(errs, selectors, (s, i) => validateLabelSelector(s ?? {}, `${path}[${i}]`));
  }
  return errs;
}

function validateSubject(s: Subject, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = s.name ?? '';
  if (name === '') errs.push(fieldError.required(`${path}.name`, ''));
  switch (s.kind) {
    case SERVICE_ACCOUNT_KIND:
      if (name !== '') for (const msg of dns1123SubdomainErrors(name)) errs.push(fieldError.invalid(`${path}.name`, name, msg));
      if ((s.apiGroup ?? '') !== '') errs.push(fieldError.notSupported(`${path}.apiGroup`, s.apiGroup ?? '', ['']));
      if (!namespaced && (s.namespace ?? '') === '') errs.push(fieldError.required(`${path}.namespace`, ''));
      break;
    case USER_KIND:
    case GROUP_KIND:
      if ((s.apiGroup ?? '') !== RBAC_GROUP) errs.push(fieldError.notSupported(`${path}.apiGroup`, s.apiGroup ?? '', [RBAC_GROUP]));
      break;
    default:
      errs.push(fieldError.notSupported(`${path}.kind`, s.kind ?? '', [SERVICE_ACCOUNT_KIND, USER_KIND, GROUP_KIND]));
  }
  return errs;
}

/** The roleRef kinds a binding may name: a RoleBinding Role or ClusterRole, a ClusterRoleBinding only ClusterRole. */
export const roleRefKinds = (namespaced: boolean): readonly string[] => (namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole']);

export function validateBinding(b: RoleBinding, namespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const ref = b.roleRef ?? {};
  if ((ref.apiGroup ?? '') !== RBAC_GROUP) errs.push(fieldError.notSupported('roleRef.apiGroup', ref.apiGroup ?? '', [RBAC_GROUP]));
  const kinds = roleRefKinds(namespaced);
  if (!kinds.includes(ref.kind ?? '')) errs.push(fieldError.notSupported('roleRef.kind', ref.kind ?? '', kinds));
  const name = ref.name ?? '';
  if (name === '') errs.push(fieldError.required('roleRef.name', ''));
  else for (const msg of pathSegmentNameErrors(name, false)) errs.push(fieldError.invalid('roleRef.name', name, msg));
  validateEach(errs, b.subjects, (s, i) => validateSubject(s ?? {}, namespaced, `subjects[${i}]`));
  return errs;
}

const sameRoleRef = (a: RoleRef | undefined, b: RoleRef | undefined): boolean =>
  (a?.apiGroup ?? '') === (b?.apiGroup ?? '') && (a?.kind ?? '') === (b?.kind ?? '') && (a?.name ?? '') === (b?.name ?? '');

export function validateBindingUpdate(b: RoleBinding, old: RoleBinding, namespaced: boolean): FieldError[] {
  const errs = validateBinding(b, namespaced);
  if (!sameRoleRef(b.roleRef, old.roleRef)) errs.push(invalidRaw('roleRef', goRoleRef(b.roleRef ?? {}), 'cannot change roleRef'));
  return errs;
}
