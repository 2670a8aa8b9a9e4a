// tryDecodeSinglePod and tryDecodePodList (pkg/kubelet/config/common.go): bytes to defaulted,
// validated pods. `parsed` tells a document that is a Pod (or PodList) but is unusable, whose
// error is final, from one that is not a pod at all, where the caller may try the other form.
// The pods returned are v1 objects as upstream's conversion leaves them: no apiVersion or kind.
import { formatFieldError } from '../../core/api/field-errors.js';
import type { FeatureGates } from '../../core/nodeagent/feature-gates.js';
import { apiReferenceError, legacyReferenceError } from './api-references.js';
import { coreV1Kind, DecodeError, yamlToJson } from './manifest-decode.js';
import { applySchemeDefaults, applySourceDefaults, type Obj, type SourceDefaults } from './pod-defaults.js';
import { POD, POD_LIST, shapeError } from './pod-shape.js';
import { validatePod } from './pod-validation.js';

export type DecodeResult<T> = { parsed: false; error: string } | { parsed: true; error: string } | { parsed: true; value: T };

function decode(data: string, wanted: 'Pod' | 'PodList'): { obj: Obj } | { error: string } {
  let json: unknown;
  try {
    json = yamlToJson(data);
    const kind = coreV1Kind(json);
    if (kind !== wanted) {
      return { error: wanted === 'Pod' ? `invalid pod: the document is a ${kind}, not a Pod` : `invalid pods list: the document is a ${kind}, not a PodList` };
    }
  } catch (e) {
    if (e instanceof DecodeError) return { error: e.message };
    throw e;
  }
  const shape = shapeError(json, wanted === 'Pod' ? POD : POD_LIST);
  return shape ? { error: shape } : { obj: json as Obj };
}

/**
 * Names, defaults and validates one decoded pod; the error is upstream's text. With the gate off
 * upstream's PodList loop has no reference check at all, only the single-pod path keeps the old one.
 */
function finish(pod: Obj, source: SourceDefaults, gates: FeatureGates, form: 'Pod' | 'PodList'): string | undefined {
  const name = pod['metadata']?.['name'];
  if (typeof name !== 'string' || name === '') return 'invalid pod: name is needed for the pod';
  delete pod['apiVersion'];
  delete pod['kind'];
  applySchemeDefaults(pod);
  applySourceDefaults(pod, source);
  const errs = validatePod(pod);
  // field.ErrorList printed with %v: the errors in brackets, separated by spaces.
  if (errs.length) return `invalid pod: [${errs.map(formatFieldError).join(' ')}]`;
  if (gates.enabled('PreventStaticPodAPIReferences')) return apiReferenceError(pod);
  return form === 'Pod' ? legacyReferenceError(pod) : undefined;
}

export function tryDecodeSinglePod(data: string, source: SourceDefaults, gates: FeatureGates): DecodeResult<Obj> {
  const d = decode(data, 'Pod');
  if ('error' in d) return { parsed: false, error: d.error };
  const error = finish(d.obj, source, gates, 'Pod');
  return error ? { parsed: true, error } : { parsed: true, value: d.obj };
}

export function tryDecodePodList(data: string, source: SourceDefaults, gates: FeatureGates): DecodeResult<Obj[]> {
  const d = decode(data, 'PodList');
  if ('error' in d) return { parsed: false, error: d.error };
  // A null item decodes, as in Go, to an empty Pod, which then has no name.
  const items = Array.isArray(d.obj['items']) ? (d.obj['items'] as (Obj | null)[]).map((x) => x ?? {}) : [];
  for (const pod of items) {
    // One bad item refuses the whole list, as upstream's loop returns on the first error, unprefixed.
    const error = finish(pod, source, gates, 'PodList');
    if (error) return { parsed: true, error };
  }
  return { parsed: true, value: items };
}
