// An audit Policy (audit.platform/v1, upstream's audit.k8s.io/v1) and how a request is matched
// against it, as upstream's policy checker: the first rule that matches gives the level and the
// stages to omit (a rule's omitStages joined with the policy's); no rule matching is level None.
import type { AuditLevel, AuditStage } from './event.js';

export interface GroupResources {
  readonly group: string;
  readonly resources: readonly string[];
  readonly resourceNames: readonly string[];
}

export interface PolicyRule {
  readonly level: AuditLevel;
  readonly users: readonly string[];
  readonly userGroups: readonly string[];
  readonly verbs: readonly string[];
  readonly resources: readonly GroupResources[];
  readonly namespaces: readonly string[];
  readonly nonResourceURLs: readonly string[];
  readonly omitStages: readonly AuditStage[];
  /** undefined: the policy's omitManagedFields applies. */
  readonly omitManagedFields?: boolean;
}

export interface AuditPolicy {
  readonly rules: readonly PolicyRule[];
  readonly omitStages: readonly AuditStage[];
  readonly omitManagedFields: boolean;
}

/** What the policy says of one request (upstream's RequestAuditConfig). */
export interface RequestAuditConfig {
  readonly level: AuditLevel;
  readonly omitStages: readonly AuditStage[];
  readonly omitManagedFields: boolean;
}

/** The parts of a request a rule looks at (authorizer.Attributes); no user before authentication. */
export interface AuditAttributes {
  readonly user?: { readonly name: string; readonly groups: readonly string[] };
  readonly verb: string;
  readonly isResourceRequest: boolean;
  readonly path: string;
  readonly namespace: string;
  readonly apiGroup: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
}

export class PolicyEvaluator {
  private readonly rules: readonly (PolicyRule & { readonly config: RequestAuditConfig })[];
  private readonly fallback: RequestAuditConfig;

  constructor(policy: AuditPolicy) {
    this.rules = policy.rules.map((r) => ({
      ...r,
      config: {
        level: r.level,
        omitStages: [...new Set([...policy.omitStages, ...r.omitStages])],
        omitManagedFields: r.omitManagedFields ?? policy.omitManagedFields,
      },
    }));
    this.fallback = { level: 'None', omitStages: policy.omitStages, omitManagedFields: policy.omitManagedFields };
  }

  evaluate(a: AuditAttributes): RequestAuditConfig {
    for (const rule of this.rules) if (ruleMatches(rule, a)) return rule.config;
    return this.fallback;
  }
}

function ruleMatches(r: PolicyRule, a: AuditAttributes): boolean {
  if (r.users.length > 0 && (!a.user || !r.users.includes(a.user.name))) return false;
  if (r.userGroups.length > 0 && (!a.user || !a.user.groups.some((g) => r.userGroups.includes(g)))) return false;
  if (r.verbs.length > 0 && !r.verbs.includes(a.verb)) return false;
  if (r.namespaces.length > 0 || r.resources.length > 0) return resourceMatches(r, a);
  if (r.nonResourceURLs.length > 0) return !a.isResourceRequest && r.nonResourceURLs.some((spec) => pathMatches(a.path, spec));
  return true;
}

function pathMatches(path: string, spec: string): boolean {
  if (spec === '*' || spec === path) return true;
  // strings.TrimRight(spec, "*"): every trailing star goes.
  return spec.endsWith('*') && path.startsWith(spec.replace(/\*+$/, ''));
}

function resourceMatches(r: PolicyRule, a: AuditAttributes): boolean {
  if (!a.isResourceRequest) return false;
  // Resources without a namespace match the empty string.
  if (r.namespaces.length > 0 && !r.namespaces.includes(a.namespace)) return false;
  if (r.resources.length === 0) return true;
  const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  for (const gr of r.resources) {
    if (gr.group !== a.apiGroup) continue;
    if (gr.resources.length === 0) return true;
    if (gr.resourceNames.length > 0 && !gr.resourceNames.includes(a.name)) continue;
    for (const res of gr.resources) {
      if (res === combined || res === '*') return true;
      if (a.subresource && res.startsWith('*/') && res.slice(2) === a.subresource) return true;
      if (res.endsWith('/*') && res.slice(0, -2) === a.resource) return true;
    }
  }
  return false;
}
