// Server-side printing (meta.k8s.io Table), asked for with
// `Accept: application/json;as=Table;v=v1;g=meta.k8s.io`.
import { errors } from '../api/errors.js';
import { goQuote } from '../api/field-errors.js';
import type { ApiObject } from '../api/meta.js';
import type { ResourceDefinition, TableColumn } from '../registry/resource.js';
import { humanDuration } from '../api/human-duration.js';

export interface TableRequest { apiVersion: 'meta.k8s.io/v1' | 'meta.k8s.io/v1beta1'; includeObject: 'None' | 'Metadata' | 'Object' }

/** Which Table version the Accept header asks for (the first acceptable clause wins), if any. */
export function tableRequested(accept: string | undefined, query: URLSearchParams): TableRequest | undefined {
  if (!accept) return undefined;
  for (const clause of accept.split(',')) {
    const params = new Map(clause.split(';').slice(1).map((p) => {
      const [k, v] = p.split('=');
      return [k?.trim() ?? '', v?.trim() ?? ''] as const;
    }));
    const type = clause.split(';')[0]!.trim();
    if (params.get('as') === 'Table' && params.get('g') === 'meta.k8s.io' && (type === 'application/json' || type === '*/*')) {
      const v = params.get('v');
      if (v !== 'v1' && v !== 'v1beta1') continue;
      // optionsForTransform's ValidateTableOptions: empty is the default, Metadata.
      const include = query.get('includeObject') || 'Metadata';
      if (!['None', 'Metadata', 'Object'].includes(include)) {
        throw errors.badRequest(`Unable to convert to Table as requested: includeObject: Invalid value: ${goQuote(include)}: must be 'Metadata', 'Object', 'None', or empty`);
      }
      return { apiVersion: `meta.k8s.io/${v}`, includeObject: include as TableRequest['includeObject'] };
    }
    if (type === 'application/json' || type === '*/*' || type === 'application/*') return undefined;
  }
  return undefined;
}

const DEFAULT_COLUMNS: readonly TableColumn[] = [
  { name: 'Name', type: 'string', format: 'name', description: 'Name must be unique within a namespace.', priority: 0 },
  { name: 'Age', type: 'string', format: '', description: 'CreationTimestamp is a timestamp representing the server time when this object was created.', priority: 0 },
];

function rowObject(obj: ApiObject, req: TableRequest): unknown {
  if (req.includeObject === 'None') return undefined;
  if (req.includeObject === 'Object') return obj;
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata };
}

function cells(def: ResourceDefinition, obj: ApiObject, now: Date): unknown[] {
  if (def.table) return def.table.cells(obj, now);
  const created = obj.metadata.creationTimestamp ? Date.parse(obj.metadata.creationTimestamp) : NaN;
  return [obj.metadata.name ?? '', Number.isNaN(created) ? '<unknown>' : humanDuration(now.getTime() - created)];
}

export function buildTable(def: ResourceDefinition, objs: readonly ApiObject[], req: TableRequest,
  meta: { resourceVersion?: string; continue?: string; remainingItemCount?: number }, now: Date, withColumns = true): unknown {
  return {
    kind: 'Table',
    apiVersion: req.apiVersion,
    metadata: meta,
    columnDefinitions: withColumns ? (def.table?.columns ?? DEFAULT_COLUMNS) : null,
    rows: objs.map((obj) => {
      const o = rowObject(obj, req);
      return o === undefined ? { cells: cells(def, obj, now) } : { cells: cells(def, obj, now), object: o };
    }),
  };
}
