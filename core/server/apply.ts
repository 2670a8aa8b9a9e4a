// Server-side apply (application/apply-patch+yaml): the applied configuration is merged into the
// live object, or into an empty one when there is none. Upstream's applyPatcher and field manager
// chain check the configuration before and after the merge; field ownership (managedFields
// conflicts) is not tracked yet.
import { errors } from '../api/errors.js';
import { parseGroupVersion } from '../api/group-version.js';
import type { ApiObject } from '../api/meta.js';
import { applyMergePatch } from '../api/patch/merge-patch.js';
import { isJsonObject } from '../api/patch/json-value.js';
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
  checkKind(p, applied);
  // Merged into the stored object, so in the resource's own group names.
  if (p.aliasApiVersion) fromWireGroup(store, applied, p.aliasApiVersion);
  if (isJsonObject(applied.metadata) && Array.isArray(applied.metadata.managedFields)) {
    throw errors.badRequest('metadata.managedFields must be nil');
  }
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
  return store.update(p.ctx, p.name, p.subresource, (current) => {
    const local: string[] = [];
    const merged = applyMergePatch(current, stripNulls(structuredClone(applied))) as ApiObject;
    const obj = decodeObject(store, merged, undefined, p.validation, local);
    strict(local);
    return finish(obj, local);
  }, {
    createIfMissing: async () => {
      if (p.subresource) throw errors.notFound(store.qualified, p.name);
      const local: string[] = [];
      const obj = decodeObject(store, structuredClone(applied), undefined, p.validation, local);
      strict(local);
      // patcher.applyPatch: a uid names an existing object, and there is none.
      if (obj.metadata.uid) {
        throw errors.conflict(store.qualified, p.name, `uid mismatch: the provided object specified uid ${obj.metadata.uid}, and no existing object was found`);
      }
      return store.create(p.ctx, finish(obj, local));
    },
  });
}

/**
 * versionCheckManager: the configuration must be of the resource's kind in the served version.
 * Unstructured reads a non-string apiVersion or kind as "", and an unparsable apiVersion as no
 * group, version or kind at all; the message shows GroupVersionKind as Go prints it.
 */
function checkKind(p: PatchInput, applied: ApiObject): void {
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
