// PATCH in its four media types. JSON patch, merge patch and strategic merge patch are applied to
// the full current object (kubectl computes subresource patches against the whole object), then
// the subresource's strategy keeps only what it owns. Apply patches (server-side apply) are in
// apply.ts.
import { errors } from '../api/errors.js';
import { fieldError } from '../api/field-errors.js';
import type { ApiObject } from '../api/meta.js';
import { applyJsonPatch } from '../api/patch/json-patch.js';
import { applyMergePatch } from '../api/patch/merge-patch.js';
import { applyStrategicMergePatch, goFormat } from '../api/patch/strategic-merge-patch.js';
import type { RequestContext, ResourceStore } from '../registry/store.js';
import { isJsonObject } from '../api/patch/json-value.js';
import { APPLY_PATCH, decodePatch } from './patch-decode.js';
import { decodeObject } from './rest.js';
import { ensureNamespaceMatches } from '../registry/namespace-match.js';
import { applyConfiguration } from './apply.js';
import { checkName } from './check-name.js';
import type { FieldValidation } from './write-options.js';
import { answerForm, fromWireGroup } from './wire-alias.js';

export const PATCH_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  APPLY_PATCH,
];

export interface PatchInput {
  store: ResourceStore;
  ctx: RequestContext;
  name: string;
  subresource: string;
  type: string;
  body: Buffer;
  validation: FieldValidation;
  warnings: string[];
  /** PatchOptions.Force: an apply takes the fields it conflicts on. */
  force?: boolean;
  /** The request came under the resource's wire alias: an apply configuration may name it. */
  aliasApiVersion?: string;
}

/** Applies a patch whose options validateWriteOptions has accepted. */
export async function applyPatchBody(p: PatchInput): Promise<{ object: ApiObject; created: boolean }> {
  const { store, type } = p;
  const { patch, strictErrors, numbers } = decodePatch(type, p.body, p.validation);
  if (type === APPLY_PATCH) return applyConfiguration(p, patch);

  // Under the wire alias the patch was written against the object as the client read it there
  // (a JSON patch's `test` op compares with it), so it applies to that form, and the result is
  // converted back as a create or update body would be.
  const form = answerForm(store, p.aliasApiVersion);
  return store.update(p.ctx, p.name, p.subresource, (stored) => {
    const current = form(stored);
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
    if (p.aliasApiVersion && isJsonObject(patched)) fromWireGroup(store, patched as ApiObject, p.aliasApiVersion);
    const obj = decodeObject(store, patched, undefined, p.validation, local, { fail: invalidPatch, priorStrictErrors: strictErrors, numbers });
    p.warnings.push(...local);
    ensureNamespaceMatches(store.namespaced, p.ctx.namespace, obj);
    checkName(obj, p.name);
    return obj;
  });
}
