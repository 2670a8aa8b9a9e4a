// Generic ObjectMeta validation (apimachinery/pkg/api/validation/objectmeta.go), run by the store
// before a resource's own strategy validation.
import { fieldError, type FieldError } from '../api/field-errors.js';
import type { ApiObject, ObjectMeta } from '../api/meta.js';

const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function qualifiedNameErrors(key: string): string[] {
  const parts = key.split('/');
  let name = key;
  const errs: string[] = [];
  if (parts.length === 2) {
    const [prefix, n] = parts as [string, string];
    name = n;
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else if (prefix.length > 253 || !DNS1123_SUBDOMAIN.test(prefix)) {
      errs.push(`prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`);
    }
  } else if (parts.length > 2) {
    return [`a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push('name part must be no more than 63 characters');
  if (name.length > 0 && !QUALIFIED_NAME.test(name)) {
    errs.push(`name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`);
  }
  return errs;
}

function validateLabels(labels: Record<string, string> | undefined): FieldError[] {
  const out: FieldError[] = [];
  for (const [k, v] of Object.entries(labels ?? {})) {
    for (const msg of qualifiedNameErrors(k)) out.push(fieldError.invalid('metadata.labels', k, msg));
    if (v.length > 63) out.push(fieldError.invalid(`metadata.labels`, v, 'must be no more than 63 characters'));
    if (!LABEL_VALUE.test(v)) {
      out.push(fieldError.invalid('metadata.labels', v, `a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`));
    }
  }
  return out;
}

function validateAnnotations(annotations: Record<string, string> | undefined): FieldError[] {
  const out: FieldError[] = [];
  let total = 0;
  for (const [k, v] of Object.entries(annotations ?? {})) {
    for (const msg of qualifiedNameErrors(k.toLowerCase())) out.push(fieldError.invalid('metadata.annotations', k, msg));
    total += k.length + v.length;
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT) out.push(fieldError.tooLong('metadata.annotations', TOTAL_ANNOTATION_SIZE_LIMIT));
  return out;
}

/** Path-segment rules every name obeys (names are URL segments). */
export function pathSegmentNameErrors(name: string, prefix: boolean): string[] {
  const out: string[] = [];
  if (!prefix && (name === '.' || name === '..')) out.push(`may not be '${name}'`);
  for (const bad of ['/', '%']) if (name.includes(bad)) out.push(`may not contain '${bad}'`);
  return out;
}

export function validateObjectMeta(meta: ObjectMeta, namespaced: boolean): FieldError[] {
  const out: FieldError[] = [];
  if (!meta.name && !meta.generateName) out.push(fieldError.required('metadata.name', 'name or generateName is required'));
  if (namespaced && !meta.namespace) out.push(fieldError.required('metadata.namespace', ''));
  if (!namespaced && meta.namespace) out.push(fieldError.forbidden('metadata.namespace', 'not allowed on this type'));
  if ((meta.generation ?? 0) < 0) out.push(fieldError.invalid('metadata.generation', meta.generation ?? 0, 'must be greater than or equal to 0'));
  out.push(...validateLabels(meta.labels), ...validateAnnotations(meta.annotations));
  for (const [i, f] of (meta.finalizers ?? []).entries()) {
    for (const msg of qualifiedNameErrors(f)) out.push(fieldError.invalid(`metadata.finalizers[${i}]`, f, msg));
  }
  return out;
}

const immutable = ['name', 'namespace', 'uid', 'creationTimestamp'] as const;

export function validateObjectMetaUpdate(meta: ObjectMeta, old: ObjectMeta, namespaced: boolean): FieldError[] {
  const out: FieldError[] = [];
  for (const f of immutable) {
    if ((meta[f] ?? '') !== (old[f] ?? '')) out.push(fieldError.invalid(`metadata.${f}`, meta[f] ?? '', 'field is immutable'));
  }
  if (old.deletionTimestamp && (meta.deletionTimestamp ?? null) !== old.deletionTimestamp) {
    out.push(fieldError.invalid('metadata.deletionTimestamp', meta.deletionTimestamp ?? '', 'field is immutable; may only be changed via deletion'));
  }
  if ((meta.generation ?? 0) < (old.generation ?? 0)) {
    out.push(fieldError.invalid('metadata.generation', meta.generation ?? 0, 'must not be decremented'));
  }
  if (old.deletionTimestamp) {
    const before = new Set(old.finalizers ?? []);
    for (const f of meta.finalizers ?? []) {
      if (!before.has(f)) out.push(fieldError.forbidden('metadata.finalizers', `no new finalizers can be added if the object is being deleted, found new finalizers ${JSON.stringify([f])}`));
    }
  }
  out.push(...validateLabels(meta.labels), ...validateAnnotations(meta.annotations));
  void namespaced;
  return out;
}

/** The fields of metadata every update keeps from the stored object (rest.BeforeUpdate). */
export function restoreSystemMeta(obj: ApiObject, old: ApiObject): void {
  const m = obj.metadata, o = old.metadata;
  if (!m.uid && o.uid) m.uid = o.uid;
  m.creationTimestamp = o.creationTimestamp ?? null;
  if (o.generation !== undefined) m.generation = o.generation; else delete m.generation;
  if (o.deletionTimestamp) m.deletionTimestamp = o.deletionTimestamp; else delete m.deletionTimestamp;
  if (o.deletionGracePeriodSeconds !== undefined) m.deletionGracePeriodSeconds = o.deletionGracePeriodSeconds;
  else delete m.deletionGracePeriodSeconds;
  delete m.selfLink;
}
