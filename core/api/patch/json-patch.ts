// RFC 6902 JSON Patch, with the behaviour and error texts of the library kube-apiserver uses
// (evanphx/json-patch v4) so that clients see what they would see upstream:
//
// - A body that is not a list of objects is a 400 (encoding/json's "cannot unmarshal" text).
//   `null` decodes to an empty patch, as it does in Go.
// - More than 10000 operations is a 413, checked before anything is applied (apiserver's bound).
// - Everything else (unknown or missing `op`, missing paths, bad indices, failed tests) is found
//   while applying, and is a 422 Invalid naming the operation and path.
//
// Deliberate differences from the RFC, all inherited from upstream: a missing `value` on add or
// replace means null; array indices parse like Go's strconv.Atoi, so negative indices count from
// the end (`/list/-1`) and `-` (append) is meaningful only for add; the root pointer "" names no
// location. Where upstream is laxer than the RFC and the laxness loses data, we follow the RFC:
// replace of a missing object member fails instead of adding it, and copy from a missing member
// fails instead of copying null.
import { errors } from '../errors.js';
import { goQuote } from '../field-errors.js';
import { cloneJson, deepEqual, getOwn, goJsonType, hasOwn, isJsonObject, setOwn, type JsonObject } from './json-value.js';
import { patchNotApplicable } from './patch-errors.js';

/** kube-apiserver's maxJSONPatchOperations. */
export const MAX_JSON_PATCH_OPERATIONS = 10000;
/**
 * Copy is the one operation whose output can outgrow its input (copying a member into itself
 * doubles it every time), so the total bytes it may add are bounded, as evanphx's
 * AccumulatedCopySizeLimit allows. Three times the largest object the store accepts.
 */
export const MAX_ACCUMULATED_COPY_BYTES = 3 * 1024 * 1024;

export type JsonPatchOperation = JsonObject;
type Container = JsonObject | unknown[];

const MISSING = 'missing value';
const INVALID_INDEX = 'invalid index referenced';

/** An operation's failure: carried as text, turned into one 422 at the top. */
class OpFailure extends Error {}
function fail(message: string): never { throw new OpFailure(message); }

/** Applies `patch` to a copy of `doc`; `doc` and `patch` are left untouched. */
export function applyJsonPatch(doc: unknown, patch: unknown): unknown {
  const ops = decodeJsonPatch(patch);
  if (ops.length > MAX_JSON_PATCH_OPERATIONS) {
    throw errors.requestEntityTooLarge(
      `The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${ops.length}`);
  }
  const root = cloneJson(doc);
  const copied = { bytes: 0 };
  try {
    for (const op of ops) applyOperation(root, op, copied);
  } catch (e) {
    if (e instanceof OpFailure) throw patchNotApplicable(e.message);
    throw e;
  }
  return root;
}

/** The structural checks Go's json.Unmarshal into jsonpatch.Patch makes: a list of objects. */
export function decodeJsonPatch(patch: unknown): JsonPatchOperation[] {
  if (patch === null) return [];
  if (!Array.isArray(patch)) {
    throw errors.badRequest(`json: cannot unmarshal ${goJsonType(patch)} into Go value of type jsonpatch.Patch`);
  }
  return patch.map((op): JsonPatchOperation => {
    if (op === null) return {};
    if (!isJsonObject(op)) {
      throw errors.badRequest(`json: cannot unmarshal ${goJsonType(op)} into Go value of type jsonpatch.Operation`);
    }
    return op;
  });
}

function applyOperation(root: unknown, op: JsonPatchOperation, copied: { bytes: number }): void {
  const kind = typeof op['op'] === 'string' ? op['op'] : 'unknown';
  switch (kind) {
    case 'add': return add(root, op);
    case 'remove': return remove(root, op);
    case 'replace': return replace(root, op);
    case 'move': return move(root, op);
    case 'test': return test(root, op);
    case 'copy': return copy(root, op, copied);
    default: fail(`Unexpected kind: ${kind}`);
  }
}

function add(root: unknown, op: JsonPatchOperation): void {
  const path = member(op, 'path', () => `add operation failed to decode path: ${MISSING}`);
  const found = findObject(root, path) ?? fail(`add operation does not apply: doc is missing path: "${path}": ${MISSING}`);
  const err = addTo(found.con, found.key, valueOf(op));
  if (err) fail(`error in add for path: '${path}': ${err}`);
}

function remove(root: unknown, op: JsonPatchOperation): void {
  const path = member(op, 'path', () => `remove operation failed to decode path: ${MISSING}`);
  const found = findObject(root, path) ?? fail(`remove operation does not apply: doc is missing path: "${path}": ${MISSING}`);
  const err = removeFrom(found.con, found.key);
  if (err) fail(`error in remove for path: '${path}': ${err}`);
}

function replace(root: unknown, op: JsonPatchOperation): void {
  const path = member(op, 'path', (cause) => `replace operation failed to decode path: ${cause}`);
  const found = findObject(root, path) ?? fail(`replace operation does not apply: doc is missing path: ${path}: ${MISSING}`);
  const got = getFrom(found.con, found.key);
  if (got.error !== undefined || got.value === undefined) {
    fail(`replace operation does not apply: doc is missing key: ${path}: ${MISSING}`);
  }
  if (Array.isArray(found.con)) found.con[got.index] = valueOf(op);
  else setOwn(found.con, found.key, valueOf(op));
}

function move(root: unknown, op: JsonPatchOperation): void {
  const from = member(op, 'from', (cause) => `move operation failed to decode from: ${cause}`);
  const src = findObject(root, from) ?? fail(`move operation does not apply: doc is missing from path: ${from}: ${MISSING}`);
  const got = getFrom(src.con, src.key);
  if (got.error !== undefined) fail(`error in move for path: '${src.key}': ${got.error}`);
  const removed = removeFrom(src.con, src.key);
  if (removed) fail(`error in move for path: '${src.key}': ${removed}`);
  // Removing first is what makes "move /a into /a/b" fail cleanly: the destination's parent is gone.
  const path = member(op, 'path', (cause) => `move operation failed to decode path: ${cause}`);
  const dst = findObject(root, path) ?? fail(`move operation does not apply: doc is missing destination path: ${path}: ${MISSING}`);
  const err = addTo(dst.con, dst.key, got.value);
  if (err) fail(`error in move for path: '${path}': ${err}`);
}

function test(root: unknown, op: JsonPatchOperation): void {
  const path = member(op, 'path', (cause) => `test operation failed to decode path: ${cause}`);
  const found = findObject(root, path) ?? fail(`test operation does not apply: is missing path: ${path}: ${MISSING}`);
  const got = getFrom(found.con, found.key);
  if (got.error !== undefined) fail(`error in test for path: '${path}': ${got.error}`);
  if (got.value === undefined || !hasOwn(op, 'value') || !deepEqual(got.value, op['value'])) {
    fail(`testing value ${path} failed: test failed`);
  }
}

function copy(root: unknown, op: JsonPatchOperation, copied: { bytes: number }): void {
  const from = member(op, 'from', (cause) => `copy operation failed to decode from: ${cause}`);
  const src = findObject(root, from) ?? fail(`copy operation does not apply: doc is missing from path: ${from}: ${MISSING}`);
  const got = getFrom(src.con, src.key);
  if (got.error !== undefined) fail(`error in copy for from: '${from}': ${got.error}`);
  if (got.value === undefined) fail(`error in copy for from: '${from}': Unable to get nonexistent key: ${src.key}: ${MISSING}`);
  const path = member(op, 'path', () => `copy operation failed to decode path: ${MISSING}`);
  const dst = findObject(root, path) ?? fail(`copy operation does not apply: doc is missing destination path: ${path}: ${MISSING}`);
  copied.bytes += JSON.stringify(got.value).length;
  if (copied.bytes > MAX_ACCUMULATED_COPY_BYTES) {
    fail(`Unable to complete the copy, the accumulated size increase of copy is ${copied.bytes}, exceeding the limit ${MAX_ACCUMULATED_COPY_BYTES}`);
  }
  const err = addTo(dst.con, dst.key, cloneJson(got.value));
  if (err) fail(`error while adding value during copy: ${err}`);
}

/** `path`/`from` as a string, or the operation-specific decode failure. */
function member(op: JsonPatchOperation, name: 'path' | 'from', onError: (cause: string) => string): string {
  const v = getOwn(op, name);
  if (typeof v === 'string') return v;
  const cause = v === undefined || v === null
    ? (name === 'path' ? `operation missing path field: ${MISSING}` : `operation, missing from field: ${MISSING}`)
    : `json: cannot unmarshal ${goJsonType(v)} into Go value of type string`;
  return fail(onError(cause));
}

/** The value to insert: a copy, so the result never aliases the patch. Missing means null (upstream). */
const valueOf = (op: JsonPatchOperation): unknown => (hasOwn(op, 'value') ? cloneJson(op['value']) : null);

const isContainer = (v: unknown): v is Container => Array.isArray(v) || isJsonObject(v);

/** RFC 6901 unescaping: `~1` is `/`, `~0` is `~`, decoded in one pass so `~01` is `~1`. */
export const decodePointerToken = (t: string): string => t.replace(/~[01]/g, (m) => (m === '~1' ? '/' : '~'));
export const encodePointerToken = (t: string): string => t.replace(/~/g, '~0').replace(/\//g, '~1');

/** The container that holds the pointer's last token, and that token. */
function findObject(root: unknown, path: string): { con: Container; key: string } | undefined {
  if (!path.startsWith('/')) return undefined;
  const parts = path.slice(1).split('/').map(decodePointerToken);
  const key = parts.pop()!;
  let cur: unknown = root;
  for (const part of parts) {
    if (!isContainer(cur)) return undefined;
    const got = getFrom(cur, part);
    if (got.error !== undefined) return undefined;
    cur = got.value;
  }
  return isContainer(cur) ? { con: cur, key } : undefined;
}

type Got = { value: unknown; index: number; error?: undefined } | { value?: undefined; index?: undefined; error: string };

/** An object member (undefined when absent, not an error) or an array element. */
function getFrom(con: Container, key: string): Got {
  if (!Array.isArray(con)) return { value: getOwn(con, key), index: -1 };
  const parsed = atoi(key);
  if (typeof parsed === 'string') return { error: parsed };
  let idx = parsed;
  if (idx < 0) {
    if (idx < -con.length) return { error: invalidIndex(idx) };
    idx += con.length;
  }
  if (idx >= con.length) return { error: invalidIndex(idx) };
  return { value: con[idx], index: idx };
}

function addTo(con: Container, key: string, value: unknown): string | undefined {
  if (!Array.isArray(con)) { setOwn(con, key, value); return undefined; }
  if (key === '-') { con.push(value); return undefined; }
  const parsed = atoi(key);
  if (typeof parsed === 'string') return `value was not a proper array index: '${key}': ${parsed}`;
  const size = con.length + 1;
  if (parsed >= size || parsed < -size) return invalidIndex(parsed);
  con.splice(parsed < 0 ? parsed + size : parsed, 0, value);
  return undefined;
}

function removeFrom(con: Container, key: string): string | undefined {
  if (!Array.isArray(con)) {
    if (!hasOwn(con, key)) return `Unable to remove nonexistent key: ${key}: ${MISSING}`;
    delete con[key];
    return undefined;
  }
  const parsed = atoi(key);
  if (typeof parsed === 'string') return parsed;
  if (parsed >= con.length || parsed < -con.length) return invalidIndex(parsed);
  con.splice(parsed < 0 ? parsed + con.length : parsed, 1);
  return undefined;
}

const invalidIndex = (idx: number): string => `Unable to access invalid index: ${idx}: ${INVALID_INDEX}`;

/** Go's strconv.Atoi: optional sign, decimal digits, 64-bit range. Returns the error text on failure. */
function atoi(s: string): number | string {
  if (!/^[+-]?[0-9]+$/.test(s)) return `strconv.Atoi: parsing ${goQuote(s)}: invalid syntax`;
  const n = Number(s);
  if (Math.abs(n) >= 2 ** 63) return `strconv.Atoi: parsing ${goQuote(s)}: value out of range`;
  return n;
}
