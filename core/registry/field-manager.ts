// Field ownership on every write, as apimachinery's FieldManager chain does it (fieldmanager.go,
// skipnonapplied.go, managedfieldsupdater.go, stripmeta.go, structuredmerge.go with
// structured-merge-diff's Updater): a create, update or patch gives the fields it changed to its
// manager's Update entry, taking them from every other manager; an apply makes the configuration's
// fields the manager's Apply entry, refuses to change another manager's field without force, and
// removes what the manager applied before, applies no more and nobody else owns.
import type { ApiObject, ManagedFieldsEntry } from '../api/meta.js';
import { FieldSet, printPath, type PathElement } from '../api/fieldsets/field-set.js';
import { compare, type Comparison } from '../api/fieldsets/compare.js';
import { isPlainObject, resolve, fieldShape, type Shape } from '../api/fieldsets/schema-shape.js';
import { ensureNamedFieldsAreMembers, itemElement, toFieldSet } from '../api/fieldsets/to-field-set.js';
import { removeItems } from '../api/fieldsets/remove-items.js';
import { StatusError } from '../api/errors.js';
import { capUpdateManagers, decodeManaged, encodeManaged, isResetManagedFields, managerIdentifier, printManager, type Managed, type ManagerSet } from './managed-fields.js';

export interface WriteManager {
  /** The fieldManager option, else the user agent's prefix (managerOrUserAgent). */
  readonly manager: string;
  /** The group/version the request was made in. */
  readonly apiVersion: string;
  readonly subresource: string;
  readonly time: string;
  readonly shape: Shape;
  /** The strategy's reset fields (GetResetFields): never owned through this endpoint. */
  readonly reset: FieldSet | undefined;
}

/** stripMetaManager's paths: the current manager never owns them. */
const STRIPPED = FieldSet.fromPaths([
  ['f:apiVersion'], ['f:kind'], ['f:metadata'],
  ...['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion']
    .map((f) => ['f:metadata', `f:${f}`]),
]);

/** A FieldSet of paths given as field names, made once per list (a strategy's reset fields). */
const resetSets = new WeakMap<readonly (readonly string[])[], FieldSet>();
export function resetFieldSet(paths: readonly (readonly string[])[] | undefined): FieldSet | undefined {
  if (!paths) return undefined;
  let s = resetSets.get(paths);
  if (!s) resetSets.set(paths, (s = FieldSet.fromPaths(paths.map((p) => p.map((f) => `f:${f}`)))));
  return s;
}

/** prefixFromUserAgent: up to the first `/`, printable characters only, at most 128 bytes. */
export function prefixFromUserAgent(ua: string): string {
  let out = '';
  let bytes = 0;
  for (const ch of ua.split('/')[0]!) {
    if (!/^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(ch)) continue;
    const n = Buffer.byteLength(ch);
    if (bytes + n > 128) break;
    out += ch; bytes += n;
  }
  return out;
}

const withoutManagedFields = (obj: ApiObject): ApiObject => {
  if (!obj.metadata || !('managedFields' in obj.metadata)) return obj;
  const { managedFields: _m, ...metadata } = obj.metadata;
  return { ...obj, metadata };
};

const filter = (s: FieldSet, reset: FieldSet | undefined): FieldSet => (reset ? s.recursiveDifference(reset) : s);
const filterComparison = (c: Comparison, reset: FieldSet | undefined): Comparison =>
  reset ? { added: filter(c.added, reset), modified: filter(c.modified, reset), removed: filter(c.removed, reset) } : c;

const newEntry = (w: WriteManager, operation: 'Apply' | 'Update', set: FieldSet): ManagerSet =>
  ({ manager: w.manager || 'unknown', operation, apiVersion: w.apiVersion, subresource: w.subresource, time: w.time, set });

/**
 * structured-merge-diff's Updater.update: the other managers lose what changed (a conflict for an
 * apply without force) and what was removed; a manager left with nothing is dropped.
 */
function takeChanged(managed: Managed, c: Comparison, self: string, force: boolean): void {
  const changed = c.modified.union(c.added);
  const conflicts: Array<[ManagerSet, FieldSet]> = [];
  for (const [id, m] of managed) {
    if (id === self) continue;
    const lost = m.set.intersection(changed);
    if (!lost.empty) conflicts.push([m, lost]);
  }
  if (!force && conflicts.length > 0) throw conflictError(conflicts);
  for (const [m, lost] of conflicts) m.set = m.set.difference(lost);
  if (!c.removed.empty) for (const [id, m] of managed) if (id !== self) m.set = m.set.difference(c.removed);
  for (const [id, m] of managed) if (m.set.empty) managed.delete(id);
}

/**
 * FieldManager.UpdateNoErrors for a create (`live` undefined), update or non-apply patch: the
 * managedFields `next` is to be stored with, or undefined for none. `next` still carries what the
 * client sent in metadata.managedFields (a client may set them; `[]` resets them).
 */
export function updateManagedFields(live: ApiObject | undefined, next: ApiObject, w: WriteManager): ManagedFieldsEntry[] | undefined {
  let managed: Managed;
  const liveEntries = live?.metadata.managedFields;
  try {
    managed = decodeLiveOrNew(liveEntries, next.metadata.managedFields, w.subresource !== '');
  } catch {
    return liveEntries;
  }
  // skipNonAppliedManager: an object stored without managedFields stays so until an apply.
  if (managed.size === 0 && live) return undefined;
  try {
    const c = filterComparison(compare(live ? withoutManagedFields(live) : {}, withoutManagedFields(next), w.shape), w.reset);
    recordUpdate(managed, c, w);
  } catch {
    // A value the schema's list semantics cannot key (an item without its map key): the live
    // object's managedFields stay, as UpdateNoErrors keeps them on any failure.
    return liveEntries;
  }
  capUpdateManagers(managed);
  return encodeManaged(managed);
}

/** managedFieldsUpdater + stripMeta + Updater.Update for the operation's comparison. */
function recordUpdate(managed: Managed, c: Comparison, w: WriteManager): void {
  takeChanged(managed, c, '', true);
  const mine = filter(c.modified.union(c.added), w.reset).difference(STRIPPED);
  if (mine.empty) return;
  const entry = newEntry(w, 'Update', mine);
  const id = managerIdentifier(entry);
  const previous = managed.get(id);
  if (previous) entry.set = mine.union(previous.set);
  managed.delete(id);
  managed.set(id, entry);
}

function decodeLiveOrNew(live: ManagedFieldsEntry[] | undefined, sent: unknown, subresource: boolean): Managed {
  const fromLive = (): Managed => { try { return decodeManaged(live); } catch { return new Map(); } };
  if (subresource) return fromLive();
  if (isResetManagedFields(sent)) return new Map();
  try {
    const m = decodeManaged(sent as ManagedFieldsEntry[] | undefined);
    return m.size > 0 ? m : fromLive();
  } catch {
    return fromLive();
  }
}

/** The 409 of NewConflictError: one conflict in a line, several listed by manager. */
function conflictError(conflicts: Array<[ManagerSet, FieldSet]>): StatusError {
  const list: Array<{ manager: ManagerSet; id: string; path: PathElement[] }> = [];
  for (const [m, s] of conflicts.sort(([a], [b]) => (managerIdentifier(a) < managerIdentifier(b) ? -1 : 1))) {
    for (const path of s.paths()) list.push({ manager: m, id: managerIdentifier(m), path });
  }
  const causes = list.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${printManager(c.manager)}`, field: printPath(c.path) }));
  let message: string;
  if (list.length === 1) {
    message = `Apply failed with 1 conflict: conflict with ${printManager(list[0]!.manager)}: ${printPath(list[0]!.path)}`;
  } else {
    const lines: string[] = [];
    for (const [m] of conflicts) {
      lines.push(`conflicts with ${printManager(m)}:`);
      for (const c of list) if (c.manager === m) lines.push(`- ${printPath(c.path)}`);
    }
    message = `Apply failed with ${list.length} conflicts: ${lines.join('\n')}`;
  }
  const e = new StatusError({ code: 409, reason: 'Conflict', message, details: { causes } });
  (e as StatusError & { conflictPaths?: FieldSet }).conflictPaths = conflicts.reduce((acc, [, s]) => acc.union(s), new FieldSet());
  return e;
}

export interface ApplyResult {
  /** The merged object, with its managedFields; undefined when the apply changes nothing. */
  readonly object: ApiObject | undefined;
  readonly managedFields: ManagedFieldsEntry[] | undefined;
}

/**
 * FieldManager.Apply for `config` (nulls already dropped) onto `live` (undefined: a create).
 * Throws the 409 conflict. `allowed`, when given, is the set whose conflicts are forced anyway
 * (lastAppliedManager's fields of a client-side apply's last configuration).
 */
export function applyManagedFields(live: ApiObject | undefined, config: ApiObject, w: WriteManager, force: boolean,
  allowed?: (live: ApiObject) => FieldSet | undefined): ApplyResult {
  const liveObj = live ? withoutManagedFields(live) : { metadata: {} } as ApiObject;
  const managed = decodeManaged(live?.metadata.managedFields);
  // skipNonAppliedManager: the first apply to an object without managedFields gives what it holds
  // to "before-first-apply".
  if (managed.size === 0 && live) {
    const c = filterComparison(compare({}, liveObj, w.shape), w.reset);
    recordUpdate(managed, c, { ...w, manager: 'before-first-apply' });
  }
  const entry = newEntry(w, 'Apply', new FieldSet());
  const self = managerIdentifier(entry);
  const last = managed.get(self)?.set;
  const configSet = filter(toFieldSet(withoutManagedFields(config), w.shape), w.reset);
  let merged = merge(liveObj, config, w.shape) as ApiObject;
  if (last && !last.empty) {
    let owned = configSet;
    for (const [id, m] of managed) if (id !== self) owned = owned.union(m.set);
    const remove = ensureNamedFieldsAreMembers(last, w.shape).difference(ensureNamedFieldsAreMembers(owned, w.shape));
    merged = removeItems(merged, remove, w.shape) as ApiObject;
  }
  const c = filterComparison(compare(liveObj, merged, w.shape), w.reset);
  try {
    takeChanged(managed, c, self, force);
  } catch (e) {
    const paths = (e as { conflictPaths?: FieldSet }).conflictPaths;
    const ok = paths && live ? allowed?.(live) : undefined;
    if (!ok || !paths!.difference(ok).empty) throw e;
    takeChanged(managed, c, self, true);
  }
  const unchanged = c.added.empty && c.modified.empty && c.removed.empty;
  const mine = configSet.difference(STRIPPED);
  managed.delete(self);
  if (!mine.empty) {
    entry.set = mine;
    if (unchanged) entry.time = managedTime(live, self) ?? w.time;
    managed.set(self, entry);
  }
  capUpdateManagers(managed);
  const managedFields = encodeManaged(managed);
  return { object: merged, managedFields };
}

function managedTime(live: ApiObject | undefined, id: string): string | undefined {
  for (const e of live?.metadata.managedFields ?? []) {
    if (managerIdentifier({ manager: e.manager ?? '', operation: e.operation ?? 'Apply', apiVersion: e.apiVersion ?? '', subresource: e.subresource ?? '' }) === id) return e.time;
  }
  return undefined;
}

/**
 * TypedValue.Merge: the configuration's leaves win; granular maps merge by key, granular lists by
 * item (the live object's items in their order, merged with the configuration's, then the
 * configuration's new items); atomic lists and maps are replaced whole.
 */
export function merge(lhs: unknown, rhs: unknown, shape: Shape): unknown {
  if (rhs === undefined) return lhs;
  const s = resolve(shape, rhs);
  if (s.t === 'map' && !s.atomic && isPlainObject(rhs) && isPlainObject(lhs)) {
    const out: Record<string, unknown> = { ...lhs };
    for (const [k, v] of Object.entries(rhs)) out[k] = k in lhs ? merge(lhs[k], v, fieldShape(s, k).shape) : v;
    return out;
  }
  if (s.t === 'list' && s.rel !== 'atomic' && Array.isArray(rhs) && Array.isArray(lhs)) {
    const fromRhs = new Map<string, unknown>();
    rhs.forEach((item, i) => fromRhs.set(itemElement(s, item, i), item));
    const out: unknown[] = [];
    lhs.forEach((item, i) => {
      const e = itemElement(s, item, i);
      if (fromRhs.has(e)) { out.push(merge(item, fromRhs.get(e), s.elem)); fromRhs.delete(e); } else out.push(item);
    });
    for (const item of fromRhs.values()) out.push(item);
    return out;
  }
  return rhs;
}
