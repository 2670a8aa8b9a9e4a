// Upstream group names as wire aliases. Clients built for Kubernetes hard-code some groups in their
// typed clients (`kubectl create clusterrole` POSTs to /apis/rbac.authorization.k8s.io/v1/...,
// whatever discovery says), so a resource may name the upstream group it renames
// (ResourceDefinition.wireGroup). A request under that group is served as the resource itself:
// authorized, admitted, validated and stored under the real group. A body may carry either
// apiVersion; the answer carries the one the path named, as the typed client needs to decode it
// (JSON answers: objects and lists; watch streams keep the real apiVersion). The alias is never in
// discovery or OpenAPI.
import type { Context } from 'koa';
import type { Resources } from '../registry/registry.js';
import type { ResourceDefinition } from '../registry/resource.js';
import type { RequestInfo } from './request-info.js';

export interface WireAlias {
  /** The request as the real resource sees it. */
  readonly info: RequestInfo;
  /** `rbac.authorization.k8s.io/v1`: what the client sent and expects back. */
  readonly aliasApiVersion: string;
  /** `rbac.authorization.platform/v1`. */
  readonly apiVersion: string;
}

const aliases = new WeakMap<Resources, ReadonlyMap<string, ResourceDefinition>>();

/** By `aliasGroup/version/plural`; a wire group that is also a served group is no alias. */
function aliasTable(resources: Resources): ReadonlyMap<string, ResourceDefinition> {
  let table = aliases.get(resources);
  if (!table) {
    const served = new Set(resources.groups());
    table = new Map(resources.all().filter((d) => d.wireGroup && !served.has(d.wireGroup)).map((d) => [`${d.wireGroup}/${d.version}/${d.plural}`, d]));
    aliases.set(resources, table);
  }
  return table;
}

export function resolveWireAlias(resources: Resources, info: RequestInfo): WireAlias | undefined {
  if (!info.isResourceRequest || !info.apiGroup) return undefined;
  const def = aliasTable(resources).get(`${info.apiGroup}/${info.apiVersion}/${info.resource}`);
  if (!def) return undefined;
  return { info: { ...info, apiGroup: def.group }, aliasApiVersion: `${info.apiGroup}/${def.version}`, apiVersion: `${def.group}/${def.version}` };
}

/** Puts the alias apiVersion into a JSON answer: the object, or a list and its items. */
export function answerInAlias(ctx: Context, alias: WireAlias): void {
  if (typeof ctx.body !== 'string' || !ctx.response.is('json')) return;
  let doc: unknown;
  try { doc = JSON.parse(ctx.body); } catch { return; }
  if (typeof doc !== 'object' || doc === null) return;
  const fix = (o: unknown) => {
    const rec = o as { apiVersion?: unknown } | null;
    if (rec && typeof rec === 'object' && rec.apiVersion === alias.apiVersion) rec.apiVersion = alias.aliasApiVersion;
  };
  fix(doc);
  const items = (doc as { items?: unknown }).items;
  if (Array.isArray(items)) items.forEach(fix);
  const pretty = ctx.query['pretty'] === 'true' || ctx.query['pretty'] === '1';
  ctx.body = JSON.stringify(doc, null, pretty ? 2 : undefined) + (pretty ? '\n' : '');
}
