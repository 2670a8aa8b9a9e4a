// Label and field selection of objects for list, watch and deletecollection.
import { parseLabelSelector } from '../api/selectors/label-selector.js';
import { parseFieldSelector } from '../api/selectors/field-selector.js';
import type { ApiObject } from '../api/meta.js';
import type { ResourceDefinition } from './resource.js';

export interface Selection {
  matches(obj: ApiObject): boolean;
  /** The name a `metadata.name=` field selector pins, if any (lets a list read one key). */
  readonly name: string | undefined;
  readonly empty: boolean;
}

export function objectFields(def: ResourceDefinition, obj: ApiObject): Record<string, string> {
  const fields: Record<string, string> = { 'metadata.name': obj.metadata.name ?? '' };
  if (def.scope === 'Namespaced') fields['metadata.namespace'] = obj.metadata.namespace ?? '';
  return { ...fields, ...(def.selectableFields?.(obj) ?? {}) };
}

const META_FIELDS = ['metadata.name', 'metadata.namespace'];

/** DefaultMetaV1FieldSelectorConversion's refusal. */
const notMetaField = (label: string) => `"${label}" is not a known field selector: only "metadata.name", "metadata.namespace"`;

export function allowedFieldLabels(def: ResourceDefinition, sample?: ApiObject): string[] {
  const base = def.scope === 'Namespaced' || def.defaultFieldLabelConversion ? META_FIELDS : ['metadata.name'];
  const probe = sample ?? ({ metadata: {} } as ApiObject);
  let extra: string[] = [];
  try { extra = Object.keys(def.selectableFields?.(probe) ?? {}); } catch { extra = []; }
  return [...base, ...extra];
}

export function buildSelection(def: ResourceDefinition, labelSelector: string | undefined, fieldSelector: string | undefined): Selection {
  const labels = parseLabelSelector(labelSelector ?? '');
  const fields = parseFieldSelector(fieldSelector ?? '');
  fields.check(allowedFieldLabels(def), def.defaultFieldLabelConversion ? notMetaField : undefined);
  return {
    matches: (obj) => labels.matches(obj.metadata.labels ?? {}) && fields.matches(objectFields(def, obj)),
    name: fields.requiredValue('metadata.name'),
    empty: labels.empty && fields.empty,
  };
}
