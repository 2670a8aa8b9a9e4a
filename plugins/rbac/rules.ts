// What a PolicyRule allows, and how one set of rules covers another: upstream's RuleAllows
// (plugin/pkg/auth/authorizer/rbac), the evaluation helpers (pkg/apis/rbac/v1) and the policy
// comparator and compactor the escalation check reports with (pkg/registry/rbac/validation).
import type { Attributes } from '../../core/authz/attributes.js';
import { goQuote } from '../../core/api/field-errors.js';
import { servedGroup } from '../../core/authz/served-group.js';
import { API_GROUP_ALL, NON_RESOURCE_ALL, RESOURCE_ALL, VERB_ALL, type PolicyRule } from './types.js';

const list = (v: readonly string[] | undefined): readonly string[] => v ?? [];

export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return list(rule.verbs).some((v) => v === VERB_ALL || v === verb);
}

export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return list(rule.apiGroups).some((g) => g === API_GROUP_ALL || g === group || servedGroup(g) === servedGroup(group));
}

// `*`, the exact `resource[/subresource]`, or a star resource with the subresource (any resource's subresource).
export function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  return list(rule.resources).some((r) => r === RESOURCE_ALL || r === combined
    || (subresource !== '' && r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource)));
}

/** No resourceNames means every name; with names, a request without one (list, create) never matches. */
export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = list(rule.resourceNames);
  return names.length === 0 || names.includes(name);
}

/** Exact, `*`, or a trailing-`*` prefix. */
export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  return list(rule.nonResourceURLs).some((u) => u === NON_RESOURCE_ALL || u === path
    || (u.endsWith('*') && path.startsWith(u.replace(/\*+$/, ''))));
}

export function ruleAllows(a: Attributes, rule: PolicyRule): boolean {
  if (a.isResourceRequest) {
    const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
    return verbMatches(rule, a.verb) && apiGroupMatches(rule, a.apiGroup)
      && resourceMatches(rule, combined, a.subresource) && resourceNameMatches(rule, a.name);
  }
  return verbMatches(rule, a.verb) && nonResourceURLMatches(rule, a.path);
}

// ---- covers (escalation check, reconciliation) ----

/** One rule per (group, resource, verb[, name]) and per (url, verb): each is covered by a single owner rule or not at all. */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of list(rule.apiGroups)) {
    for (const resource of list(rule.resources)) {
      for (const verb of list(rule.verbs)) {
        const names = list(rule.resourceNames);
        if (names.length) for (const name of names) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
        else out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
      }
    }
  }
  for (const url of list(rule.nonResourceURLs)) {
    for (const verb of list(rule.verbs)) out.push({ nonResourceURLs: [url], verbs: [verb] });
  }
  return out;
}

const hasAll = (set: readonly string[], want: readonly string[]): boolean => want.every((w) => set.includes(w));

function nonResourceURLCovers(owner: string, sub: string): boolean {
  return owner === sub || (owner.endsWith('*') && sub.startsWith(owner.replace(/\*+$/, '')));
}

// resourceCoversAll: `*`, the resource itself, or for `res/sub` an owned star subresource ("*" + "/sub").
function resourceCoversAll(owned: readonly string[], wanted: readonly string[]): boolean {
  if (owned.includes(RESOURCE_ALL)) return true;
  return wanted.every((path) => {
    if (owned.includes(path)) return true;
    const slash = path.indexOf('/');
    return slash >= 0 && owned.includes(`*/${path.slice(slash + 1)}`);
  });
}

/** Whether `owner` covers `sub` (a broken-down rule with at most one verb, resource and name). */
function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = list(owner.verbs), groups = list(owner.apiGroups), resources = list(owner.resources);
  const ownerNames = list(owner.resourceNames), subNames = list(sub.resourceNames);
  const verbOk = verbs.includes(VERB_ALL) || hasAll(verbs, list(sub.verbs));
  const groupOk = groups.includes(API_GROUP_ALL) || hasAll(groups.map(servedGroup), list(sub.apiGroups).map(servedGroup));
  const resourceOk = resourceCoversAll(resources, list(sub.resources));
  const urlOk = list(sub.nonResourceURLs).every((p) => list(owner.nonResourceURLs).some((o) => nonResourceURLCovers(o, p)));
  const nameOk = subNames.length === 0 ? ownerNames.length === 0 : ownerNames.length === 0 || hasAll(ownerNames, subNames);
  return verbOk && groupOk && resourceOk && urlOk && nameOk;
}

/** validation.Covers: whether `owner` covers `servant`, and the broken-down servant rules it does not. */
export function covers(owner: readonly PolicyRule[], servant: readonly PolicyRule[]): { covered: boolean; missing: PolicyRule[] } {
  const missing = servant.flatMap(breakdownRule).filter((sub) => !owner.some((o) => ruleCovers(o, sub)));
  return { covered: missing.length === 0, missing };
}

/**
 * CompactRules: broken-down rules that differ only by verb (one group, one resource, at most one
 * name, no URLs) merge into one rule with all their verbs.
 */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const names = list(rule.resourceNames);
    const isSimple = names.length <= 1 && list(rule.nonResourceURLs).length === 0
      && list(rule.apiGroups).length === 1 && list(rule.resources).length === 1;
    if (!isSimple) { out.push(rule); continue; }
    const key = JSON.stringify([rule.apiGroups![0], rule.resources![0], names.length > 0, names[0] ?? '']);
    const existing = simple.get(key);
    if (existing) existing.verbs = [...list(existing.verbs), ...list(rule.verbs)];
    else simple.set(key, structuredClone(rule));
  }
  return [...out, ...simple.values()];
}

/** Go's `%q` of a []string: `["a" "b"]`. */
export function goQuoteList(values: readonly string[]): string {
  return `[${values.map(goQuote).join(' ')}]`;
}

/** rbacv1helpers.CompactString: `{APIGroups:["x"], Resources:["y"], Verbs:["get"]}`. */
export function compactString(r: PolicyRule): string {
  const parts: string[] = [];
  const add = (label: string, v: readonly string[] | undefined) => { if (list(v).length) parts.push(`${label}:${goQuoteList(list(v))}`); };
  add('APIGroups', r.apiGroups);
  add('Resources', r.resources);
  add('NonResourceURLs', r.nonResourceURLs);
  add('ResourceNames', r.resourceNames);
  add('Verbs', r.verbs);
  return `{${parts.join(', ')}}`;
}
