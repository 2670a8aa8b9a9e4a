// Answers in `as=PartialObjectMetadata` and `as=PartialObjectMetadataList` (meta.k8s.io v1 or
// v1beta1): objects reduced to their metadata, as the handlers' transformObject makes them for
// client-go's metadata client (metadata informers). The other kind of the pair is a 406 in
// asPartialObjectMetadata's words.
import { errors } from '../api/errors.js';
import type { ApiObject, ObjectMeta } from '../api/meta.js';
import type { ResourceDefinition } from '../registry/resource.js';

export type PartialKind = 'PartialObjectMetadata' | 'PartialObjectMetadataList';
export interface PartialTarget { readonly kind: PartialKind; readonly apiVersion: string }

export interface PartialObjectMetadata { kind: 'PartialObjectMetadata'; apiVersion: string; metadata: ObjectMeta }

/** The Go type the message names (%T of the internal object): `*certificates.CertificateSigningRequest`. */
function goTypeName(def: ResourceDefinition, list: boolean): string {
  const pkg = def.group ? def.group.split('.')[0] : 'core';
  return `*${pkg}.${list ? def.listKind : def.kind}`;
}

export function asPartialObjectMetadata(obj: ApiObject, apiVersion: string): PartialObjectMetadata {
  return { kind: 'PartialObjectMetadata', apiVersion, metadata: obj.metadata };
}

/** One object in the requested form; a 406 when a list was asked for. */
export function partialObject(def: ResourceDefinition, target: PartialTarget, obj: ApiObject): PartialObjectMetadata {
  if (target.kind !== 'PartialObjectMetadata') {
    throw errors.notAcceptable(`you requested PartialObjectMetadataList, but the requested object is not a list (${goTypeName(def, false)})`);
  }
  return asPartialObjectMetadata(obj, target.apiVersion);
}

/** A list's head in the requested form (its items follow as asPartialObjectMetadata); a 406 when one object was asked for. */
export function partialListHead(def: ResourceDefinition, target: PartialTarget, metadata: Record<string, unknown>): { kind: string; apiVersion: string; metadata: Record<string, unknown> } {
  if (target.kind !== 'PartialObjectMetadataList') {
    throw errors.notAcceptable(`you requested PartialObjectMetadata, but the requested object is a list (${goTypeName(def, true)})`);
  }
  return { kind: 'PartialObjectMetadataList', apiVersion: target.apiVersion, metadata };
}
