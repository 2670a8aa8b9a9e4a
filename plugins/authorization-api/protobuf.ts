// Protobuf bodies of the access reviews (k8s.io/api/authorization/v1 generated.proto), as
// kubectl's typed client posts a SelfSubjectAccessReview under authorization.k8s.io (`kubectl auth
// can-i VERB TYPE`). Any authenticated user may post one, so the body is untrusted: it is read field
// by field (eachField: bounded varints, lengths checked), unknown fields skipped as gogo-protobuf
// does, and the status (filled in by the server) ignored. A gogo message writes its non-pointer
// strings even when empty; the JSON form omits them (omitempty), so an empty one is left out here.
import type { ApiObject } from '../../core/api/meta.js';
import { eachField, mapEntry, objectMeta, stringField, type Field } from '../../core/api/protobuf.js';
import { putEntry } from '../../core/api/own-entry.js';
import type { SelectorAttributesWire, SelectorRequirementWire } from '../../core/authz/selector-attributes.js';

type Json = Record<string, unknown>;

/** Sets `key` to the field's string unless it is empty. */
function setString(into: Json, key: string, f: Field): void {
  const v = stringField(f);
  if (v !== '') into[key] = v; else delete into[key];
}

/** metav1.FieldSelectorRequirement and LabelSelectorRequirement: key 1, operator 2, values 3. */
function requirement(buf: Buffer | undefined): SelectorRequirementWire {
  const r: Json = { key: '', operator: '' };
  const values: string[] = [];
  for (const f of eachField(buf)) {
    if (f.no === 1) r['key'] = stringField(f);
    else if (f.no === 2) r['operator'] = stringField(f);
    else if (f.no === 3) values.push(stringField(f));
  }
  if (values.length) r['values'] = values;
  return r as unknown as SelectorRequirementWire;
}

/** FieldSelectorAttributes / LabelSelectorAttributes: rawSelector 1, requirements 2. */
function selectorAttributes(buf: Buffer | undefined): SelectorAttributesWire {
  const s: Json = {};
  const requirements: SelectorRequirementWire[] = [];
  for (const f of eachField(buf)) {
    if (f.no === 1) setString(s, 'rawSelector', f);
    else if (f.no === 2) requirements.push(requirement(f.bytes));
  }
  if (requirements.length) s['requirements'] = requirements;
  return s as SelectorAttributesWire;
}

const RESOURCE_STRINGS: Record<number, string> = { 1: 'namespace', 2: 'verb', 3: 'group', 4: 'version', 5: 'resource', 6: 'subresource', 7: 'name' };

function resourceAttributes(buf: Buffer | undefined): Json {
  const r: Json = {};
  for (const f of eachField(buf)) {
    const key = RESOURCE_STRINGS[f.no];
    if (key) setString(r, key, f);
    else if (f.no === 8) r['fieldSelector'] = selectorAttributes(f.bytes);
    else if (f.no === 9) r['labelSelector'] = selectorAttributes(f.bytes);
  }
  return r;
}

function nonResourceAttributes(buf: Buffer | undefined): Json {
  const n: Json = {};
  for (const f of eachField(buf)) {
    if (f.no === 1) setString(n, 'path', f);
    else if (f.no === 2) setString(n, 'verb', f);
  }
  return n;
}

/** ExtraValue: items 1. */
function extraValue(buf: Buffer): string[] {
  const items: string[] = [];
  for (const f of eachField(buf)) if (f.no === 1) items.push(stringField(f));
  return items;
}

/** SubjectAccessReviewSpec (SelfSubjectAccessReviewSpec is its first two fields). */
function spec(buf: Buffer | undefined, self: boolean): Json {
  const s: Json = {};
  const groups: string[] = [];
  const extra: Record<string, string[]> = {};
  for (const f of eachField(buf)) {
    if (f.no === 1) s['resourceAttributes'] = resourceAttributes(f.bytes);
    else if (f.no === 2) s['nonResourceAttributes'] = nonResourceAttributes(f.bytes);
    else if (self) continue;
    else if (f.no === 3) setString(s, 'user', f);
    else if (f.no === 4) groups.push(stringField(f));
    else if (f.no === 5) {
      stringField(f);
      const [k, v] = mapEntry(f);
      putEntry(extra, k, extraValue(v));
    }
    else if (f.no === 6) setString(s, 'uid', f);
  }
  if (groups.length) s['groups'] = groups;
  if (Object.keys(extra).length) s['extra'] = extra;
  return s;
}

/** A review: metadata 1, spec 2, status 3 (ignored). */
const review = (self: boolean) => (raw: Buffer): ApiObject => {
  const obj: ApiObject & { spec?: Json } = { metadata: {} };
  for (const f of eachField(raw)) {
    if (f.no === 1) obj.metadata = objectMeta(f.bytes!);
    else if (f.no === 2) obj.spec = spec(f.bytes, self);
  }
  return obj;
};

export const decodeSubjectAccessReview = review(false);
export const decodeSelfSubjectAccessReview = review(true);
