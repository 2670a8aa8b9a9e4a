// A PATCH body decoded as upstream's patchers decode it (apiserver handlers/patch.go), with their
// words for a body that is not the patch its type says. Each patch type, and for JSON and merge
// patches the fieldValidation directive, decodes through a different Go call with its own wording.
import { errors } from '../api/errors.js';
import { goJsonType, isJsonObject } from '../api/patch/json-value.js';
import { decodePointerToken } from '../api/patch/json-patch.js';
import { scanJsonText, type NumberLiteral } from '../api/schema-fields.js';
import { BodySyntaxError, parseDocument } from './body.js';

const JSON_PATCH = 'application/json-patch+json';
const MERGE_PATCH = 'application/merge-patch+json';
/** Server-side apply's patch type (apply.ts). */
export const APPLY_PATCH = 'application/apply-patch+yaml';
const GO_MAP = 'map[string]interface {}';

export interface DecodedPatch {
  readonly patch: unknown;
  /**
   * What kjson.UnmarshalStrict found in the patch itself (Strict and Warn only): duplicate fields,
   * and for a JSON patch fields that are not an operation's. Reported with the patched object's own.
   */
  readonly strictErrors: readonly string[];
  /**
   * The patch's number literals JSON.parse reads inexactly (1.0, 1e3), at the path each lands on
   * in the patched object. JSON and merge patches carry a value's text into the patched JSON
   * (json-patch's lazy nodes), so upstream decodes it as written; a strategic merge patch goes
   * through a Go map (float64), and its numbers arrive as Go prints them.
   */
  readonly numbers: readonly NumberLiteral[];
}

/** The patch document; a body that is not one is a 400 with upstream's message. */
export function decodePatch(type: string, body: Buffer, validation: 'Strict' | 'Warn' | 'Ignore'): DecodedPatch {
  // Strict and Warn first run kjson.UnmarshalStrict over the patch; Ignore goes straight to the library.
  const strict = validation !== 'Ignore';
  let doc: { value: unknown; json?: string };
  try {
    doc = parseDocument(body, type === APPLY_PATCH ? type : 'application/json');
  } catch (e) {
    if (!(e instanceof BodySyntaxError)) throw e;
    throw errors.badRequest(syntaxMessage(type, strict, e.message));
  }
  const problem = shapeProblem(type, strict, doc.value);
  if (problem) throw errors.badRequest(problem);
  const scan = doc.json !== undefined && type !== APPLY_PATCH ? scanJsonText(doc.json) : undefined;
  const strictErrors = strict && scan ? patchStrictErrors(type, doc.value, scan.duplicates) : [];
  return { patch: doc.value, strictErrors, numbers: scan ? landedNumbers(type, doc.value, scan.numbers) : [] };
}

/** Where a patch's number literals land in the patched object (see DecodedPatch.numbers). */
function landedNumbers(type: string, patch: unknown, numbers: readonly NumberLiteral[]): NumberLiteral[] {
  if (numbers.length === 0) return [];
  // A merge patch is shaped like the object: each value lands at its own path.
  if (type === MERGE_PATCH) return [...numbers];
  if (type !== JSON_PATCH || !Array.isArray(patch)) return [];
  // An add or replace puts its value at its path (an append, `-`, is left out: where it lands
  // depends on the operations before it). Copies and moves of such a value are not followed.
  return numbers.flatMap((n) => {
    const [i, field, ...rest] = n.segments;
    const op = patch[Number(i)] as { op?: unknown; path?: unknown } | undefined;
    if (field !== 'value' || !op || (op.op !== 'add' && op.op !== 'replace') || typeof op.path !== 'string' || !op.path.startsWith('/')) return [];
    const target = op.path.slice(1).split('/').map(decodePointerToken);
    return target.includes('-') ? [] : [{ segments: [...target, ...rest], literal: n.literal }];
  });
}

const OP_FIELDS = new Set(['op', 'path', 'from', 'value']);

/**
 * kjson's strict errors for the patch, in document order per operation. A JSON patch decodes into
 * []jsonPatchOp, so any other key of an operation is unknown (case-sensitively; a repeated unknown
 * key is reported once, and not as a duplicate), and its errors carry the patcher's "json patch"
 * prefix; merge and strategic merge patches decode into a map, where only duplicates can be wrong.
 */
function patchStrictErrors(type: string, value: unknown, duplicates: readonly string[]): string[] {
  if (type !== JSON_PATCH) return duplicates.map((p) => `duplicate field "${p}"`);
  if (!Array.isArray(value)) return [];
  const out: string[] = [];
  value.forEach((op, i) => {
    const at = `[${i}]`;
    const unknown = isJsonObject(op) ? Object.keys(op).filter((k) => !OP_FIELDS.has(k)).map((k) => `${at}.${k}`) : [];
    out.push(...unknown.map((p) => `json patch unknown field "${p}"`));
    out.push(...duplicates.filter((p) => (p.startsWith(`${at}.`) || p.startsWith(`${at}[`)) && !unknown.includes(p)).map((p) => `json patch duplicate field "${p}"`));
  });
  return out;
}

function syntaxMessage(type: string, strict: boolean, cause: string): string {
  switch (type) {
    case JSON_PATCH: return strict ? `error decoding patch: ${cause}` : cause;
    // evanphx/json-patch's MergePatch answers any syntax error with ErrBadJSONPatch.
    case MERGE_PATCH: return strict ? `error decoding patch: ${cause}` : 'Invalid JSON Patch';
    case APPLY_PATCH: return `error decoding YAML: error converting YAML to JSON: ${cause}`;
    default: return cause;
  }
}

function shapeProblem(type: string, strict: boolean, value: unknown): string | undefined {
  const notMap = `json: cannot unmarshal ${goJsonType(value)} into Go value of type ${GO_MAP}`;
  switch (type) {
    // With Ignore, jsonpatch.DecodePatch's own checks run where the patch is applied.
    case JSON_PATCH: return strict ? jsonPatchOpsProblem(value) : undefined;
    case MERGE_PATCH:
      if (isJsonObject(value)) return undefined;
      // A null patch gets through the strict decode (a nil map) but not MergePatch.
      return strict && value !== null ? `error decoding patch: ${notMap}` : 'Invalid JSON Patch';
    case APPLY_PATCH:
      if (isJsonObject(value) || value === null) return undefined;
      return `error decoding YAML: error unmarshaling JSON: while decoding JSON: ${notMap}`;
    default:
      return isJsonObject(value) || value === null ? undefined : notMap;
  }
}

/** kjson.UnmarshalStrict into []handlers.jsonPatchOp: its first type mismatch, in document order. */
function jsonPatchOpsProblem(value: unknown): string | undefined {
  if (value === null) return undefined;
  const problem = (cause: string): string => `error decoding patch: json: cannot unmarshal ${cause}`;
  if (!Array.isArray(value)) return problem(`${goJsonType(value)} into Go value of type []handlers.jsonPatchOp`);
  for (const op of value) {
    if (op === null) continue;
    if (!isJsonObject(op)) return problem(`${goJsonType(op)} into Go value of type handlers.jsonPatchOp`);
    for (const [field, v] of Object.entries(op)) {
      if ((field === 'op' || field === 'path' || field === 'from') && v !== null && typeof v !== 'string') {
        return problem(`${goJsonType(v)} into Go struct field jsonPatchOp.${field} of type string`);
      }
    }
  }
  return undefined;
}
