// nodeutil.PatchNodeStatus's patch: a strategic merge patch for nodes/status that takes the stored
// Node (as read) to the one the agent computed, the spec left alone. It says what
// CreateTwoWayMergePatch would say for what the agent changes: changed map members (null for a
// removed one), conditions merged by type with changed fields only and the final order in
// $setElementOrder, and the addresses replaced whole (upstream's fix-up, applied here also when
// there were none before), because two InternalIPs of a dual-stack node share their merge key.
import { isDeepStrictEqual } from 'node:util';
import type { Node, NodeCondition } from '../../core/nodes/node-object.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const plain = <T>(v: T): Json => JSON.parse(JSON.stringify(v ?? null)) as Json;

/** Two-way diff of two JSON objects: lists and scalars are replaced, objects recurse. */
export function diffObjects(a: JsonObject, b: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (!Object.hasOwn(b, k)) { out[k] = null; continue; }
    if (!Object.hasOwn(a, k)) { out[k] = b[k]!; continue; }
    const [x, y] = [a[k]!, b[k]!];
    if (isObject(x) && isObject(y)) {
      const d = diffObjects(x, y);
      if (Object.keys(d).length) out[k] = d;
    } else if (!isDeepStrictEqual(x, y)) out[k] = y;
  }
  return out;
}

function conditionsPatch(original: NodeCondition[], updated: NodeCondition[]): Json[] | undefined {
  const before = new Map(original.map((c) => [c.type, plain(c) as JsonObject]));
  const entries: Json[] = [];
  for (const c of updated) {
    const now = plain(c) as JsonObject;
    const was = before.get(c.type);
    if (!was) { entries.push(now); continue; }
    const d = diffObjects(was, now);
    if (Object.keys(d).length) entries.push({ type: c.type, ...d });
  }
  const kept = new Set(updated.map((c) => c.type));
  for (const c of original) if (!kept.has(c.type)) entries.push({ type: c.type, $patch: 'delete' });
  const reordered = !isDeepStrictEqual(original.filter((c) => kept.has(c.type)).map((c) => c.type), updated.filter((c) => before.has(c.type)).map((c) => c.type));
  return entries.length || reordered ? entries : undefined;
}

/** The patch taking `original` to `updated` (both whole Nodes); `{}` when nothing changed. */
export function nodeStatusPatch(original: Node, updated: Node): JsonObject {
  const patch: JsonObject = {};
  const meta = diffObjects(plain(original.metadata) as JsonObject, plain(updated.metadata) as JsonObject);
  if (Object.keys(meta).length) patch['metadata'] = meta;

  const { conditions: oc = [], addresses: oa = [], ...oRest } = original.status ?? {};
  const { conditions: uc = [], addresses: ua = [], ...uRest } = updated.status ?? {};
  const status = diffObjects(plain(oRest) as JsonObject, plain(uRest) as JsonObject);
  const conditions = conditionsPatch(oc, uc);
  if (conditions) {
    status['conditions'] = conditions;
    status['$setElementOrder/conditions'] = uc.map((c) => ({ type: c.type }));
  }
  if (!isDeepStrictEqual(plain(oa), plain(ua))) status['addresses'] = [{ $patch: 'replace' }, ...(plain(ua) as Json[])];
  if (Object.keys(status).length) patch['status'] = status;
  return patch;
}
