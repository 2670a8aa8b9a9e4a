// RFC 7386 JSON Merge Patch: an object patch merges member by member, `null` deletes a member,
// anything else (arrays included) replaces. The function is the RFC's, whole: a non-object patch
// replaces the document. kube-apiserver additionally refuses non-object bodies before applying
// them; `assertMergePatchBody` is that check, for callers that want it.
import { errors } from '../errors.js';
import { cloneJson, getOwn, isJsonObject, setOwn, type JsonObject } from './json-value.js';

/** Returns the patched document; `doc` and `patch` are left untouched and never aliased. */
export function applyMergePatch(doc: unknown, patch: unknown): unknown {
  if (!isJsonObject(patch)) return cloneJson(patch);
  return mergeInto(isJsonObject(doc) ? cloneJson(doc) : {}, patch);
}

/** Merges `patch` into `target`, which the caller owns (a fresh copy): mutated and returned. */
function mergeInto(target: JsonObject, patch: JsonObject): JsonObject {
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) {
      delete target[key];
    } else if (isJsonObject(value)) {
      const current = getOwn(target, key);
      setOwn(target, key, mergeInto(isJsonObject(current) ? current : {}, value));
    } else {
      setOwn(target, key, cloneJson(value));
    }
  }
  return target;
}

/**
 * evanphx/json-patch's MergePatch answers ErrBadJSONPatch (400 `Invalid JSON Patch`) for `null`
 * and scalar bodies. An array body is "applied" upstream and fails later, when the result is
 * decoded as an object, so it is left to the caller's decoding too.
 */
export function assertMergePatchBody(patch: unknown): void {
  if (patch === null || (typeof patch !== 'object')) throw errors.badRequest('Invalid JSON Patch');
}
