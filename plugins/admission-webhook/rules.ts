// Which requests a webhook's rules select (predicates/rules/rules.go), and the requests no
// webhook ever sees: those on the admission configuration resources themselves, so that a
// broken webhook can always be removed.
import type { AdmissionRequest } from '../../core/admission/request.js';
import { GROUP, type RuleWithOperations } from './types.js';

const EXEMPT_KINDS = new Set([
  'ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration', 'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding', 'MutatingAdmissionPolicy', 'MutatingAdmissionPolicyBinding',
]);

export function isExemptAdmissionConfigurationResource(req: Pick<AdmissionRequest, 'group' | 'kind'>): boolean {
  return req.group === GROUP && EXEMPT_KINDS.has(req.kind);
}

const exactOrWildcard = (items: readonly string[] | undefined, requested: string): boolean =>
  (items ?? []).some((i) => i === '*' || i === requested);

const isNamespaceResource = (req: Pick<AdmissionRequest, 'group' | 'version' | 'resource'>): boolean =>
  req.group === '' && req.version === 'v1' && req.resource === 'namespaces';

function scopeMatches(scope: string | undefined, req: AdmissionRequest): boolean {
  if (scope === undefined || scope === '*') return true;
  // A namespace object's request carries its own name as namespace, yet namespaces are cluster-scoped.
  if (scope === 'Namespaced') return !isNamespaceResource(req) && req.namespace !== '';
  if (scope === 'Cluster') return isNamespaceResource(req) || req.namespace === '';
  return false;
}

function resourceMatches(resources: readonly string[] | undefined, req: AdmissionRequest): boolean {
  return (resources ?? []).some((r) => {
    const slash = r.indexOf('/');
    const res = slash < 0 ? r : r.slice(0, slash);
    const sub = slash < 0 ? '' : r.slice(slash + 1);
    return (res === '*' || res === req.resource) && (sub === '*' || sub === req.subresource);
  });
}

export function ruleMatches(rule: RuleWithOperations, req: AdmissionRequest): boolean {
  return scopeMatches(rule.scope, req) &&
    (rule.operations ?? []).some((op) => op === '*' || op === req.operation) &&
    exactOrWildcard(rule.apiGroups, req.group) &&
    exactOrWildcard(rule.apiVersions, req.version) &&
    resourceMatches(rule.resources, req);
}
