// An authorization question as a SubjectAccessReviewSpec (authorization/v1), built from Attributes
// the way upstream's webhook authorizer builds it: the user, uid, groups and extra of the caller,
// and resourceAttributes for API requests (with the selectors as requirements) or
// nonResourceAttributes for other paths. The webhook
// authorizer sends it (v1, or v1beta1 where `groups` is spelled `group`) and its matchConditions
// read it in its v1 form through CEL.
import type { Attributes } from './attributes.js';
import { selectorsToWire, type SelectorAttributesWire } from './selector-attributes.js';

export interface ResourceAttributes {
  readonly namespace: string;
  readonly verb: string;
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
  readonly fieldSelector?: SelectorAttributesWire;
  readonly labelSelector?: SelectorAttributesWire;
}

export interface NonResourceAttributes {
  readonly path: string;
  readonly verb: string;
}

export interface SubjectAccessReviewSpec {
  readonly resourceAttributes?: ResourceAttributes;
  readonly nonResourceAttributes?: NonResourceAttributes;
  readonly user: string;
  readonly groups: readonly string[];
  readonly extra: Readonly<Record<string, readonly string[]>>;
  readonly uid: string;
}

export function specFromAttributes(a: Attributes): SubjectAccessReviewSpec {
  // Extra keys sorted, as Go's encoding/json writes a map: the spec's JSON is also a cache key.
  const extra: Record<string, readonly string[]> = {};
  for (const k of Object.keys(a.user.extra ?? {}).sort()) extra[k] = [...a.user.extra![k]!];
  const who = { user: a.user.name, groups: [...a.user.groups], extra, uid: a.user.uid ?? '' };
  if (a.isResourceRequest) {
    return {
      resourceAttributes: {
        namespace: a.namespace, verb: a.verb, group: a.apiGroup, version: a.apiVersion,
        resource: a.resource, subresource: a.subresource, name: a.name, ...selectorsToWire(a.selectors),
      },
      ...who,
    };
  }
  return { nonResourceAttributes: { path: a.path, verb: a.verb }, ...who };
}

/** Drops empty strings, lists and maps, as the Go types' `omitempty` tags do on the wire. */
function omitEmpty(o: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (v === undefined || v === '') continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0) continue;
    out[k] = v;
  }
  return out;
}

/**
 * The spec as JSON for `version`: v1 names the groups `groups`, v1beta1 names them `group`; field
 * order is the Go struct's, so equal questions give equal text.
 */
export function specToWire(spec: SubjectAccessReviewSpec, version: 'v1' | 'v1beta1'): Record<string, unknown> {
  return omitEmpty({
    resourceAttributes: spec.resourceAttributes && omitEmpty({ ...spec.resourceAttributes }),
    nonResourceAttributes: spec.nonResourceAttributes && omitEmpty({ ...spec.nonResourceAttributes }),
    user: spec.user,
    [version === 'v1' ? 'groups' : 'group']: spec.groups,
    extra: spec.extra,
    uid: spec.uid,
  });
}
