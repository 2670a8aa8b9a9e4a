// Protobuf request bodies of the RBAC kinds: kubectl's typed clients (`kubectl create role`,
// `create clusterrole`, `create rolebinding`, `create clusterrolebinding`) send them as
// application/vnd.kubernetes.protobuf. Field numbers from k8s.io/api/rbac/v1/generated.proto.
import type { ApiObject } from '../../core/api/meta.js';
import { fields, mapEntry, objectMeta, str, eachField } from '../../core/api/protobuf.js';
import { putEntry } from '../../core/api/own-entry.js';
import type { LabelSelectorObject, LabelSelectorRequirementObject } from '../../core/api/selectors/label-selector.js';
import type { ClusterRole, PolicyRule, RoleBinding, RoleRef, Subject } from './types.js';

const RULE_FIELDS = ['verbs', 'apiGroups', 'resources', 'resourceNames', 'nonResourceURLs'] as const;

function policyRule(buf: Buffer): PolicyRule {
  const rule: PolicyRule = {};
  for (const f of eachField(buf)) {
    const key = RULE_FIELDS[f.no - 1];
    if (key && f.wire === 2) (rule[key] ??= []).push(str(f));
  }
  return rule;
}

function labelSelector(buf: Buffer): LabelSelectorObject {
  const matchLabels: Record<string, string> = {};
  const matchExpressions: LabelSelectorRequirementObject[] = [];
  for (const f of eachField(buf)) {
    if (f.no === 1) { const [k, v] = mapEntry(f); putEntry(matchLabels, k, v.toString('utf8')); }
    else if (f.no === 2) {
      const req: LabelSelectorRequirementObject = { key: '', operator: '' };
      const values: string[] = [];
      for (const e of eachField(f.bytes!)) {
        if (e.no === 1) req.key = str(e);
        else if (e.no === 2) req.operator = str(e);
        else if (e.no === 3) values.push(str(e));
      }
      matchExpressions.push(values.length ? { ...req, values } : req);
    }
  }
  return { ...(Object.keys(matchLabels).length ? { matchLabels } : {}), ...(matchExpressions.length ? { matchExpressions } : {}) };
}

function subject(buf: Buffer): Subject {
  const s: Subject = {};
  for (const f of eachField(buf)) {
    if (f.no === 1) s.kind = str(f);
    else if (f.no === 2) s.apiGroup = str(f);
    else if (f.no === 3) s.name = str(f);
    else if (f.no === 4) s.namespace = str(f);
  }
  return s;
}

function roleRef(buf: Buffer): RoleRef {
  const r: RoleRef = {};
  for (const f of eachField(buf)) {
    if (f.no === 1) r.apiGroup = str(f);
    else if (f.no === 2) r.kind = str(f);
    else if (f.no === 3) r.name = str(f);
  }
  return r;
}

/** Role and ClusterRole: metadata 1, rules 2, aggregationRule 3 (ClusterRole only). */
export function decodeRole(raw: Buffer): ApiObject {
  const obj: ClusterRole = { metadata: {} };
  for (const f of eachField(raw)) {
    if (f.no === 1) obj.metadata = objectMeta(f.bytes!);
    else if (f.no === 2) (obj.rules ??= []).push(policyRule(f.bytes!));
    else if (f.no === 3) {
      const selectors = fields(f.bytes!).filter((x) => x.no === 1).map((x) => labelSelector(x.bytes!));
      obj.aggregationRule = selectors.length ? { clusterRoleSelectors: selectors } : {};
    }
  }
  return obj;
}

/** RoleBinding and ClusterRoleBinding: metadata 1, subjects 2, roleRef 3. */
export function decodeBinding(raw: Buffer): ApiObject {
  const obj: RoleBinding = { metadata: {} };
  for (const f of eachField(raw)) {
    if (f.no === 1) obj.metadata = objectMeta(f.bytes!);
    else if (f.no === 2) (obj.subjects ??= []).push(subject(f.bytes!));
    else if (f.no === 3) obj.roleRef = roleRef(f.bytes!);
  }
  return obj;
}
