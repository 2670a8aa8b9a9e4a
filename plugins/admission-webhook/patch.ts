// Applying a mutating webhook's JSON patch (mutating/dispatcher.go callAttrMutatingHook): the
// patch is decoded, applied to the object as the webhook saw it, and the result decoded again
// the way Go's non-strict decoder would (type errors fail, unknown fields are dropped, times are
// rewritten as upstream stores them). A patch that decodes but cannot apply, or yields an
// undecodable object, is a 500 regardless of the failure policy, as upstream.
import { errors, isStatusError, StatusError } from '../../core/api/errors.js';
import type { ApiObject } from '../../core/api/meta.js';
import { applyJsonPatch, decodeJsonPatch } from '../../core/api/patch/json-patch.js';
import { deepEqual } from '../../core/api/patch/json-value.js';
import { pruneUnknownFields } from '../../core/api/schema-fields.js';
import { applyGoNulls } from '../../core/api/go-null.js';
import { SchemaTypeChecker } from '../../core/api/schema-types.js';
import { goDecodedForm } from '../../core/api/go-decoded-form.js';
import { goJsonSyntaxError } from '../../core/api/go-json-syntax.js';
import type { JsonSchema } from '../../core/registry/resource.js';

/** The patch could not even be read: subject to the failure policy. */
export class UndecodablePatch extends Error {}

const checkers = new WeakMap<JsonSchema, SchemaTypeChecker>();
function checker(schema: JsonSchema): SchemaTypeChecker {
  let c = checkers.get(schema);
  if (!c) checkers.set(schema, (c = new SchemaTypeChecker(schema)));
  return c;
}

const internal = (message: string): StatusError => errors.internal(new Error(message));

/** The operations of a base64 JSON patch (empty: nothing to do). */
export function decodePatch(base64: string): unknown[] {
  let value: unknown;
  const bytes = Buffer.from(base64, 'base64');
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch (e) {
    // jsonpatch.DecodePatch is a json.Unmarshal: its syntax error, in encoding/json's words.
    throw new UndecodablePatch(`received undecodable patch in webhook response: ${goJsonSyntaxError(bytes) ?? (e as Error).message}`);
  }
  try {
    return decodeJsonPatch(value);
  } catch (e) {
    throw new UndecodablePatch(`received undecodable patch in webhook response: ${isStatusError(e) ? e.status.message : (e as Error).message}`);
  }
}

/** Applies decoded operations to `obj`; returns the new object and whether anything changed. */
export function applyPatch(obj: ApiObject, operations: unknown[], schema: JsonSchema | undefined): { object: ApiObject; changed: boolean } {
  let patched: unknown;
  try {
    patched = applyJsonPatch(obj, operations);
  } catch (e) {
    // The json-patch library's own words: the PATCH handler's 422 keeps them off the wire (on
    // `cause`), the dispatcher's NewInternalError(err) carries them.
    if (!isStatusError(e)) throw internal((e as Error).message);
    throw internal(typeof e.cause === 'string' ? e.cause : e.status.message ?? '');
  }
  if (typeof patched !== 'object' || patched === null || Array.isArray(patched)) {
    throw internal(`json: cannot unmarshal ${Array.isArray(patched) ? 'array' : typeof patched} into Go value of type struct`);
  }
  const out = patched as ApiObject;
  if (out.apiVersion !== obj.apiVersion) {
    throw internal(`the API version in the data (${String(out.apiVersion)}) does not match the expected API version (${String(obj.apiVersion)})`);
  }
  if (out.kind !== obj.kind) throw internal(`the kind in the data (${String(out.kind)}) does not match the expected kind (${String(obj.kind)})`);
  if (schema) {
    // The patched JSON is decoded into the Go object upstream: a null the webhook sets is absent.
    applyGoNulls(out, schema);
    const typeError = checker(schema).check(out);
    if (typeError) throw internal(typeError);
    goDecodedForm(out, schema);
    pruneUnknownFields(out, schema);
  }
  out.metadata ??= {};
  return { object: out, changed: !deepEqual(obj, out) };
}
