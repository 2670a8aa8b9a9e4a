// The object a TokenRequest's boundObjectRef names, as upstream's TokenREST looks it up: the
// reference's apiVersion read as schema.FromAPIVersionAndKind does (an unparsable one is no group
// and no version), then a Get of the Pod, Node or Secret, whose NotFound the client sees as is. A
// Node only with the ServiceAccountTokenNodeBinding gate (beta, on in 1.32): with it off, upstream's
// TokenREST refuses the kind before looking for the Node.
import { errors } from '../../core/api/errors.js';
import { parseGroupVersion } from '../../core/api/group-version.js';
import type { ResourceStore } from '../../core/registry/store.js';
import type { BoundClaims, Ref } from './claims.js';

export interface BoundObjectReference { kind?: string; apiVersion?: string; name?: string; uid?: string }

export interface BoundStores {
  pods: () => ResourceStore | undefined;
  nodes: () => ResourceStore | undefined;
  secrets: () => ResourceStore | undefined;
}

export const NODE_BINDING_GATE = 'ServiceAccountTokenNodeBinding';

const KINDS = { Pod: { plural: 'pods', namespaced: true }, Node: { plural: 'nodes', namespaced: false }, Secret: { plural: 'secrets', namespaced: true } } as const;

/** The claims binding a token to `ref`'s object; 400 for a kind no token binds to, 404 or 409 as upstream. */
export async function bindingFor(
  stores: BoundStores, namespace: string, ref: BoundObjectReference, nodeBinding: boolean,
): Promise<Pick<BoundClaims, 'secret' | 'node'>> {
  // FromAPIVersionAndKind: an apiVersion that does not parse is the empty GroupVersion.
  const { group, version } = parseGroupVersion(ref.apiVersion ?? '') ?? { group: '', version: '' };
  const kind = ref.kind ?? '';
  const spec = group === '' && Object.hasOwn(KINDS, kind) ? KINDS[kind as keyof typeof KINDS] : undefined;
  if (!spec) throw errors.badRequest(`cannot bind token to object of type ${group}/${version}, Kind=${kind}`);
  if (kind === 'Node' && !nodeBinding) throw errors.badRequest(`cannot bind token to a Node object as the "${NODE_BINDING_GATE}" feature-gate is disabled`);
  const name = ref.name ?? '';
  const store = stores[spec.plural]();
  if (!store) throw errors.notFound({ group: '', resource: spec.plural }, name);
  const obj = await store.get(spec.namespaced ? namespace : '', name);
  const bound: Ref = { name: obj.metadata.name ?? '', uid: obj.metadata.uid ?? '' };
  if (ref.uid && ref.uid !== bound.uid) {
    throw errors.conflict({ group, resource: kind }, name,
      `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`);
  }
  // plat's Pods are a read-only view that is always empty, so the Get above has already said 404.
  if (kind === 'Pod') throw errors.badRequest('cannot bind token to a Pod: plat runs no Pods');
  return kind === 'Node' ? { node: bound } : { secret: bound };
}
