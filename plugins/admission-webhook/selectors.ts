// namespaceSelector and objectSelector (predicates/namespace, predicates/object). A cluster-scoped
// object other than a Namespace is never exempted by namespaceSelector; a Namespace being created
// or updated is matched on its own labels; a missing namespace is the 404 upstream answers.
import { errors, isStatusError } from '../../core/api/errors.js';
import type { ApiObject } from '../../core/api/meta.js';
import type { AdmissionRequest } from '../../core/admission/request.js';
import { labelSelectorFromObject } from '../../core/api/selectors/label-selector.js';
import type { LabelSelector } from './types.js';

export type NamespaceLabels = (namespace: string) => Promise<Record<string, string> | undefined>;

function parse(selector: LabelSelector | undefined) {
  try {
    return labelSelectorFromObject(selector ?? {});
  } catch (e) {
    // Stored selectors were validated; one that still fails to parse is a server-side problem.
    throw errors.internal(isStatusError(e) ? new Error(e.status.message ?? '') : e);
  }
}

export async function matchNamespaceSelector(selector: LabelSelector | undefined, req: AdmissionRequest, lookup: NamespaceLabels): Promise<boolean> {
  if (req.namespace === '' && req.resource !== 'namespaces') return true;
  const s = parse(selector);
  if (s.empty) return true;
  let labels: Record<string, string> | undefined;
  if (req.resource === 'namespaces' && req.subresource === '' && (req.operation === 'CREATE' || req.operation === 'UPDATE')) {
    labels = req.object?.metadata.labels ?? {};
  } else {
    labels = await lookup(req.namespace);
    if (labels === undefined) throw errors.notFound({ group: '', resource: 'namespaces' }, req.namespace);
  }
  return s.matches(labels);
}

const matchObject = (obj: ApiObject | undefined, s: ReturnType<typeof parse>): boolean => obj !== undefined && s.matches(obj.metadata?.labels ?? {});

export function matchObjectSelector(selector: LabelSelector | undefined, req: AdmissionRequest): boolean {
  const s = parse(selector);
  if (s.empty) return true;
  return matchObject(req.object, s) || matchObject(req.oldObject, s);
}
