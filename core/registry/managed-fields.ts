// metadata.managedFields decoded into field sets by manager and encoded back, as apimachinery's
// managedfields/internal (managedfields.go, capmanagers.go): a manager is identified by its name,
// operation, subresource and, for an Update, the apiVersion; entries are written Apply before
// Update, then oldest first; more than ten Update managers merge the oldest into "ancient-changes".
import type { ManagedFieldsEntry } from '../api/meta.js';
import { FieldSet } from '../api/fieldsets/field-set.js';
import { decodeFieldsV1, encodeFieldsV1 } from '../api/fieldsets/fields-v1.js';

export interface ManagerSet {
  readonly manager: string;
  readonly operation: 'Apply' | 'Update';
  readonly apiVersion: string;
  readonly subresource: string;
  time: string | undefined;
  set: FieldSet;
}

/** By BuildManagerIdentifier's JSON. */
export type Managed = Map<string, ManagerSet>;

export const MAX_UPDATE_MANAGERS = 10;
const ANCIENT = 'ancient-changes';

export function managerIdentifier(m: Pick<ManagerSet, 'manager' | 'operation' | 'apiVersion' | 'subresource'>): string {
  return JSON.stringify({
    manager: m.manager, operation: m.operation,
    ...(m.operation === 'Update' && m.apiVersion ? { apiVersion: m.apiVersion } : {}),
    ...(m.subresource ? { subresource: m.subresource } : {}),
  });
}

/** printManager, for conflict messages: `"kubectl" using v1`, `"x" with subresource "status"`. */
export function printManager(m: ManagerSet): string {
  let s = JSON.stringify(m.manager);
  if (m.subresource) s += ` with subresource ${JSON.stringify(m.subresource)}`;
  return m.operation === 'Update' ? `${s} using ${m.apiVersion}` : s;
}

export class ManagedFieldsError extends Error {}

/** DecodeManagedFields. */
export function decodeManaged(entries: readonly ManagedFieldsEntry[] | undefined): Managed {
  const out: Managed = new Map();
  (entries ?? []).forEach((e, i) => {
    if (e === null || typeof e !== 'object') throw new ManagedFieldsError(`managed fields entry ${i} is not an object`);
    if (e.operation !== 'Apply' && e.operation !== 'Update') throw new ManagedFieldsError('operation must be `Apply` or `Update`');
    if (!e.apiVersion) throw new ManagedFieldsError('apiVersion must not be empty');
    if (!e.fieldsType) throw new ManagedFieldsError(`missing fieldsType in managed fields entry ${i}`);
    if (e.fieldsType !== 'FieldsV1') throw new ManagedFieldsError(`invalid fieldsType "${String(e.fieldsType)}" in managed fields entry ${i}`);
    const m: ManagerSet = {
      manager: e.manager ?? '', operation: e.operation, apiVersion: e.apiVersion, subresource: e.subresource ?? '',
      time: e.time ?? undefined, set: e.fieldsV1 === undefined || e.fieldsV1 === null ? new FieldSet() : decodeFieldsV1(e.fieldsV1),
    };
    out.set(managerIdentifier(m), m);
  });
  return out;
}

/** isResetManagedFields: `[]`, or one empty entry. */
export function isResetManagedFields(entries: unknown): boolean {
  if (!Array.isArray(entries)) return false;
  if (entries.length === 0) return true;
  return entries.length === 1 && entries[0] !== null && typeof entries[0] === 'object' && Object.keys(entries[0] as object).length === 0;
}

const seconds = (t: string | undefined): number => (t ? Math.floor(Date.parse(t) / 1000) : 0);
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** encodeManagedFields with sortEncodedManagedFields' order; none at all for no manager. */
export function encodeManaged(managed: Managed): ManagedFieldsEntry[] | undefined {
  if (managed.size === 0) return undefined;
  const sorted = [...managed.values()].sort((p, q) => cmp(p.operation, q.operation) || seconds(p.time) - seconds(q.time)
    || cmp(p.manager, q.manager) || cmp(p.apiVersion, q.apiVersion) || cmp(p.subresource, q.subresource));
  return sorted.map((m) => ({
    manager: m.manager, operation: m.operation, apiVersion: m.apiVersion, ...(m.time ? { time: m.time } : {}),
    fieldsType: 'FieldsV1' as const, fieldsV1: encodeFieldsV1(m.set), ...(m.subresource ? { subresource: m.subresource } : {}),
  }));
}

/** capManagersManager: the oldest Update managers past the cap merge, by apiVersion, into "ancient-changes". */
export function capUpdateManagers(managed: Managed, max = MAX_UPDATE_MANAGERS): void {
  const updaters = [...managed.entries()].filter(([, m]) => m.operation === 'Update');
  if (updaters.length <= max) return;
  updaters.sort(([ia, a], [ib, b]) => seconds(a.time) - seconds(b.time) || cmp(ia, ib));
  const firstOfVersion = new Map<string, string>();
  let length = updaters.length;
  for (const [id, m] of updaters) {
    if (length <= max) break;
    const bucket = managerIdentifier({ manager: ANCIENT, operation: 'Update', apiVersion: m.apiVersion, subresource: '' });
    const first = firstOfVersion.get(m.apiVersion);
    if (first === undefined) { firstOfVersion.set(m.apiVersion, id); continue; }
    if (!managed.has(bucket)) {
      const f = managed.get(first)!;
      managed.delete(first);
      managed.set(bucket, { ...f, manager: ANCIENT, subresource: '' });
    }
    const b = managed.get(bucket)!;
    b.set = m.set.union(b.set);
    b.time = m.time;
    managed.delete(id);
    length--;
  }
}
