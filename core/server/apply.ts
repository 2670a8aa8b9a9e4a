// Server-side apply (application/apply-patch+yaml), as upstream's applyPatcher and FieldManager
// chain (core/registry/field-manager.ts): the configuration merges into the live object, or into
// an empty one when there is none, by the schema's list and map semantics; its fields become the
// manager's Apply entry in managedFields; a field another manager owns and the configuration
// changes is a 409 conflict unless `force`; what the manager applied before and applies no more is
// removed unless someone else owns it. For the manager "kubectl", the conflicts a client-side
// apply's last-applied-configuration explains are forced, and that annotation follows the apply
// (lastAppliedManager, lastAppliedUpdater).
import { errors } from '../api/errors.js';
import { parseGroupVersion } from '../api/group-version.js';
import type { ApiObject } from '../api/meta.js';
import { FieldSet } from '../api/fieldsets/field-set.js';
import { compare } from '../api/fieldsets/compare.js';
import { toFieldSet, FieldSetError } from '../api/fieldsets/to-field-set.js';
import { typedErrors, typedErrorText } from '../api/fieldsets/typed-errors.js';
import { shapeOf } from '../api/fieldsets/schema-shape.js';
import { applyManagedFields, type WriteManager } from '../registry/field-manager.js';
import { isJsonObject } from '../api/patch/json-value.js';
import { goJsonEncode } from '../api/go-json-marshal.js';
import { compareCodePoints } from '../api/go-order.js';
import { checkName } from './check-name.js';
import { ensureNamespaceMatches } from '../registry/namespace-match.js';
import type { PatchInput } from './patch.js';
import { decodeObject } from './rest.js';
import { fromWireGroup } from './wire-alias.js';
import { yamlDuplicateKeys, yamlStrictError } from './yaml-strict.js';

export async function applyConfiguration(p: PatchInput, patch: unknown): Promise<{ object: ApiObject; created: boolean }> {
  const { store } = p;
  // yaml.Unmarshal of an empty document or `null` leaves the map empty.
  const applied = (patch ?? {}) as ApiObject;
  const gvk = checkKind(p, applied);
  // Merged into the stored object, so in the resource's own group names.
  if (p.aliasApiVersion) fromWireGroup(store, applied, p.aliasApiVersion);
  if (isJsonObject(applied.metadata) && Array.isArray(applied.metadata.managedFields)) {
    throw errors.badRequest('metadata.managedFields must be nil');
  }
  checkTyped(store, applied, gvk);
  // Upstream runs UnmarshalStrict after the merge, so merge errors come first.
  const duplicates = p.validation === 'Ignore' ? [] : yamlDuplicateKeys(p.body);
  const strict = (local: string[]): void => {
    if (duplicates.length === 0) return;
    if (p.validation === 'Strict') throw errors.badRequest(`error strict decoding YAML: ${yamlStrictError(duplicates)}`);
    local.push(...duplicates);
  };
  const finish = (obj: ApiObject, local: string[]): ApiObject => {
    p.warnings.push(...local);
    ensureNamespaceMatches(store.namespaced, p.ctx.namespace, obj);
    checkName(obj, p.name);
    return obj;
  };
  const config = stripNulls(structuredClone(applied)) as ApiObject;
  const manager = (): WriteManager => ({ ...store.writeManager(p.ctx, p.subresource), manager: p.ctx.options && 'write' in p.ctx.options ? p.ctx.options.write.fieldManager : '' });
  const managedApply = (live: ApiObject | undefined): ApiObject => {
    const w = manager();
    let r;
    try {
      r = applyManagedFields(live, config, w, p.force ?? false, w.manager === KUBECTL ? (l) => allowedFromLastApplied(l, w) : undefined);
    } catch (e) {
      if (e instanceof FieldSetError) throw errors.internal(new Error(`failed to create typed patch object: ${e.message}`));
      throw e;
    }
    const obj = r.object as ApiObject;
    obj.metadata ??= {};
    if (r.managedFields) obj.metadata.managedFields = r.managedFields; else delete obj.metadata.managedFields;
    if (w.manager === KUBECTL) syncLastApplied(obj, applied);
    return obj;
  };
  return store.update(p.ctx, p.name, p.subresource, (current) => {
    const local: string[] = [];
    const merged = managedApply(current);
    const obj = decodeObject(store, merged, undefined, p.validation, local);
    strict(local);
    return finish(obj, local);
  }, {
    managed: true,
    createIfMissing: async () => {
      if (p.subresource) throw errors.notFound(store.qualified, p.name);
      const local: string[] = [];
      const obj = decodeObject(store, managedApply(undefined), undefined, p.validation, local);
      strict(local);
      // patcher.applyPatch: a uid names an existing object, and there is none.
      if (obj.metadata.uid) {
        throw errors.conflict(store.qualified, p.name, `uid mismatch: the provided object specified uid ${obj.metadata.uid}, and no existing object was found`);
      }
      return store.create(p.ctx, finish(obj, local), { managed: true, byUpdate: true });
    },
  });
}

const KUBECTL = 'kubectl';
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * lastAppliedManager.allowedConflictsFromLastApplied: the fields of the live object's
 * last-applied-configuration whose values the live object still has.
 */
function allowedFromLastApplied(live: ApiObject, w: WriteManager): FieldSet | undefined {
  const text = live.metadata.annotations?.[LAST_APPLIED];
  if (!text) return undefined;
  let last: unknown;
  try { last = JSON.parse(text); } catch { return undefined; }
  if (!isJsonObject(last)) return undefined;
  try {
    const { managedFields: _m, ...metadata } = live.metadata;
    const c = compare(last, { ...live, metadata }, w.shape);
    return toFieldSet(last, w.shape).difference(c.modified).difference(c.added).difference(c.removed);
  } catch { return undefined; }
}

/**
 * lastAppliedUpdater: a kubectl apply to an object that has the annotation rewrites it to the
 * configuration without the annotation, as unstructured's JSON encoder writes it (map keys
 * sorted, a trailing newline).
 */
function syncLastApplied(obj: ApiObject, applied: ApiObject): void {
  if (!obj.metadata.annotations?.[LAST_APPLIED]) return;
  const copy = structuredClone(applied);
  if (isJsonObject(copy.metadata) && isJsonObject(copy.metadata.annotations)) delete copy.metadata.annotations[LAST_APPLIED];
  obj.metadata.annotations = { ...obj.metadata.annotations, [LAST_APPLIED]: goJsonEncode(sortedKeys(copy)) };
}

const sortedKeys = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(sortedKeys);
  if (!isJsonObject(v)) return v;
  return Object.fromEntries(Object.keys(v).sort(compareCodePoints).map((k) => [k, sortedKeys(v[k])]));
};

/**
 * versionCheckManager: the configuration must be of the resource's kind in the served version.
 * Unstructured reads a non-string apiVersion or kind as "", and an unparsable apiVersion as no
 * group, version or kind at all; the message shows GroupVersionKind as Go prints it.
 */
function checkKind(p: PatchInput, applied: ApiObject): string {
  const { def } = p.store;
  const raw = applied as { apiVersion?: unknown; kind?: unknown };
  const gv = parseGroupVersion(typeof raw.apiVersion === 'string' ? raw.apiVersion : '');
  const kind = gv && typeof raw.kind === 'string' ? raw.kind : '';
  const group = gv?.group ?? '';
  const version = gv?.version ?? '';
  const groups = [def.group, ...(p.aliasApiVersion ? [parseGroupVersion(p.aliasApiVersion)?.group] : [])];
  if (!groups.includes(group) || version !== def.version || kind !== def.kind) {
    throw errors.badRequest(`invalid object type: ${group}/${version}, Kind=${kind}`);
  }
  // Served under the alias, the object is the resource's own.
  applied.apiVersion = p.store.apiVersion;
  return `${group}/${version}, Kind=${kind}`;
}

/**
 * structuredMergeManager.Apply's typed conversion of the configuration: a field the schema does not
 * declare fails the apply under any fieldValidation, so no manager ever owns a field the object
 * cannot hold. The error is no Status, so the answer is a 500 with no reason and Go's text.
 */
function checkTyped(store: PatchInput['store'], applied: ApiObject, gvk: string): void {
  const errs = typedErrors(applied, shapeOf(store.def.schema));
  if (errs.length === 0) return;
  const meta = isJsonObject(applied.metadata) ? applied.metadata as Record<string, unknown> : {};
  const str = (v: unknown): string => (typeof v === 'string' ? v : '');
  throw errors.unknown(`failed to create typed patch object (${str(meta.namespace)}/${str(meta.name)}; ${gvk}): ${typedErrorText(errs)}`);
}

/** An apply configuration sets values; explicit nulls in it mean "no opinion", not "delete". */
function stripNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripNulls);
  if (v && typeof v === 'object') {
    for (const [k, val] of Object.entries(v)) {
      if (val === null) delete (v as Record<string, unknown>)[k];
      else (v as Record<string, unknown>)[k] = stripNulls(val);
    }
  }
  return v;
}
