// PATCH in its four media types. JSON patch, merge patch and strategic merge patch are applied to
// the full current object (kubectl computes subresource patches against the whole object), then
// the subresource's strategy keeps only what it owns. Apply patches (server-side apply) upsert and
// merge; field ownership (managedFields conflicts) is not tracked yet.
import { errors, StatusError } from '../api/errors.js';
import { aggregateFieldErrors, fieldError } from '../api/field-errors.js';
import type { ApiObject } from '../api/meta.js';
import { applyJsonPatch } from '../api/patch/json-patch.js';
import { applyMergePatch } from '../api/patch/merge-patch.js';
import { applyStrategicMergePatch, goFormat } from '../api/patch/strategic-merge-patch.js';
import type { RequestContext, ResourceStore } from '../registry/store.js';
import { decodePatch } from './patch-decode.js';
import { decodeObject } from './rest.js';
import { ensureNamespaceMatches } from './namespace-match.js';

export const PATCH_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
];

export interface PatchInput {
  store: ResourceStore;
  ctx: RequestContext;
  name: string;
  subresource: string;
  type: string;
  body: Buffer;
  query: URLSearchParams;
  validation: 'Strict' | 'Warn' | 'Ignore';
  warnings: string[];
}

function patchOptionsInvalid(field: string, detail: string): StatusError {
  const e = fieldError.required(field, detail);
  return new StatusError({
    code: 422, reason: 'Invalid', message: `PatchOptions.meta.k8s.io "" is invalid: ${aggregateFieldErrors([e])}`,
    details: { group: 'meta.k8s.io', kind: 'PatchOptions', causes: [{ reason: e.type, message: e.message, field: e.field }] },
  });
}

export async function applyPatchBody(p: PatchInput): Promise<{ object: ApiObject; created: boolean }> {
  const { store, type } = p;
  const what = `${store.def.kind} in version "${store.def.version}" cannot be handled as a ${store.def.kind}`;
  if (p.body.length === 0) throw errors.badRequest('the body of the request was empty');
  const { patch, strictErrors, numbers } = decodePatch(type, p.body, p.validation);
  const force = p.query.get('force');

  if (type === 'application/apply-patch+yaml') {
    const manager = p.query.get('fieldManager') ?? '';
    if (!manager) throw patchOptionsInvalid('fieldManager', 'is required for apply patch');
    if (patch === null) throw errors.badRequest(`${what}: expected an object`);
    const applied = patch as ApiObject;
    if (applied.metadata?.name !== undefined && applied.metadata.name !== p.name) {
      throw errors.badRequest(`the name of the object (${applied.metadata.name}) does not match the name on the URL (${p.name})`);
    }
    return store.update(p.ctx, p.name, p.subresource, (current) => {
      const local: string[] = [];
      const merged = applyMergePatch(current, stripNulls(structuredClone(applied))) as ApiObject;
      const obj = decodeObject(store, merged, undefined, p.validation, local);
      p.warnings.push(...local);
      ensureNamespaceMatches(store, p.ctx.namespace, obj);
      return obj;
    }, {
      createIfMissing: async () => {
        if (p.subresource) throw errors.notFound(store.qualified, p.name);
        const local: string[] = [];
        const obj = decodeObject(store, structuredClone(applied), undefined, p.validation, local);
        p.warnings.push(...local);
        ensureNamespaceMatches(store, p.ctx.namespace, obj);
        obj.metadata.name = p.name;
        return store.create(p.ctx, obj);
      },
    });
  }
  if (force !== null) throw errors.badRequest('force: Invalid value: true: may not be specified for non-apply patch');

  return store.update(p.ctx, p.name, p.subresource, (current) => {
    let patched: unknown;
    if (type === 'application/json-patch+json') patched = applyJsonPatch(current, patch);
    else if (type === 'application/merge-patch+json') patched = applyMergePatch(current, patch);
    else patched = applyStrategicMergePatch(current, patch ?? {}, store.def.schema);
    const local: string[] = [];
    // Upstream's patchers answer an object that does not decode, or fails strict decoding, with a
    // 422 on the field "patch" showing the patched JSON (the patch map, for strategic merge patch).
    // Go's patched JSON orders keys as its json-patch library leaves them; plat shows its own order.
    // Taken before decoding, which prunes unknown fields from the patched object.
    const shown = type === 'application/strategic-merge-patch+json' ? goFormat(patch ?? {}) : JSON.stringify(patched);
    const invalidPatch = (cause: string) => errors.invalid({ group: '', kind: '' }, '', [fieldError.invalid('patch', shown, cause)]);
    const obj = decodeObject(store, patched, undefined, p.validation, local, { fail: invalidPatch, priorStrictErrors: strictErrors, numbers });
    p.warnings.push(...local);
    ensureNamespaceMatches(store, p.ctx.namespace, obj);
    if (obj.metadata.name !== p.name) throw errors.badRequest(`the name of the object (${String(obj.metadata.name)}) does not match the name on the URL (${p.name})`);
    return obj;
  });
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
