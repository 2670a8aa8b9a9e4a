// tryDecodeSinglePod and tryDecodePodList (pkg/kubelet/config/common.go): bytes to defaulted,
// validated pods. `parsed` tells a document that is a Pod (or PodList) but is unusable, whose
// error is final, from one that is not a pod at all, where the caller may try the other form.
// The pods returned are v1 objects as upstream's conversion leaves them: no apiVersion or kind.
import { formatFieldError } from '../../core/api/field-errors.js';
import { apiObjectReference } from './api-references.js';
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

/** Defaults, validates and checks one decoded pod; the error is upstream's text. */
function finish(pod: Obj, source: SourceDefaults): string | undefined {
  delete pod['apiVersion'];
  delete pod['kind'];
  applySchemeDefaults(pod);
  applySourceDefaults(pod, source);
  const errs = validatePod(pod);
  // field.ErrorList printed with %v: the errors in brackets, separated by spaces.
  if (errs.length) return `invalid pod: [${errs.map(formatFieldError).join(' ')}]`;
  const ref = apiObjectReference(pod);
  if (ref && 'error' in ref) return ref.error;
  if (ref) return `static pods may not reference ${ref.resource}`;
  return undefined;
}

const hasName = (pod: Obj) => typeof pod['metadata']?.['name'] === 'string' && pod['metadata']['name'] !== '';

export function tryDecodeSinglePod(data: string, source: SourceDefaults): DecodeResult<Obj> {
  const d = decode(data, 'Pod');
  if ('error' in d) return { parsed: false, error: d.error };
  const pod = d.obj;
  if (!hasName(pod)) return { parsed: true, error: 'invalid pod: name is needed for the pod' };
  const error = finish(pod, source);
  return error ? { parsed: true, error } : { parsed: true, value: pod };
}

export function tryDecodePodList(data: string, source: SourceDefaults): DecodeResult<Obj[]> {
  const d = decode(data, 'PodList');
  if ('error' in d) return { parsed: false, error: d.error };
  const items = Array.isArray(d.obj['items']) ? (d.obj['items'] as Obj[]).filter((x) => x !== null) : [];
  for (const [i, pod] of items.entries()) {
    // One bad item refuses the whole list, as upstream's loop returns on the first error.
    const error = finish(pod, source);
    if (error) return { parsed: true, error: `items[${i}]: ${error}` };
  }
  return { parsed: true, value: items };
}
