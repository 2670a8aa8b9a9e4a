// Upstream group names as wire aliases. Clients built for Kubernetes hard-code some groups in their
// typed clients (`kubectl create clusterrole` POSTs to /apis/rbac.authorization.k8s.io/v1/...,
// whatever discovery says), so a resource may name the upstream group it renames
// (ResourceDefinition.wireGroup). A request under that group is served as the resource itself:
// authorized, admitted, validated and stored under the real group. A body may carry either
// apiVersion; every answer (objects, lists, watch events, in any media type) carries the one the
// path named, as the typed client needs to decode it, with the group names inside converted back
// (ResourceDefinition.toWireGroup). A Status naming the resource names it as the client addressed
// it (statusInWireGroup). The alias is never in discovery or OpenAPI.
import type { Status } from '../api/errors.js';
import type { ApiObject } from '../api/meta.js';
import type { Resources } from '../registry/registry.js';
import type { ResourceDefinition } from '../registry/resource.js';
import type { ResourceStore } from '../registry/store.js';
import type { RequestInfo } from './request-info.js';

export interface WireAlias {
  /** The request as the real resource sees it. */
  readonly info: RequestInfo;
  /** `rbac.authorization.k8s.io/v1`: what the client sent and expects back. */
  readonly aliasApiVersion: string;
  /** `rbac.authorization.platform/v1`. */
  readonly apiVersion: string;
  /** `rbac.authorization.k8s.io`: the group the path named. */
  readonly wireGroup: string;
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
  return {
    info: { ...info, apiGroup: def.group }, aliasApiVersion: `${info.apiGroup}/${def.version}`, apiVersion: `${def.group}/${def.version}`,
    wireGroup: info.apiGroup,
  };
}

/**
 * A Status answered under the alias, naming the resource in the alias's group: upstream builds its
 * texts from the group the request came in (NewInvalid's GroupKind, NewNotFound's GroupResource:
 * `ClusterRole.rbac.authorization.k8s.io "x" is invalid: ...`), and a client matches on them.
 * Every apimachinery text that names a group puts the qualified name before anything a client
 * wrote (only a fixed phrase, `Operation cannot be fulfilled on `, or a verb before it), so the
 * first `<kind>.<group>` in the message is that name. The rest of the text stays: a forbidden
 * request's reason names the group the authorizers were asked about, the resource's own, which is
 * what an RBAC rule must name.
 */
export function statusInWireGroup(status: Status, alias: WireAlias): Status {
  const details = status.details;
  const group = alias.info.apiGroup;
  if (details?.group !== group) return status;
  // An empty kind is omitted from details (the reviews' NewInvalid names none: `.authorization.k8s.io`).
  const kind = details.kind ?? '';
  const named = `${kind}.${group}`;
  return {
    ...status,
    ...(status.message !== undefined ? { message: status.message.replace(named, () => `${kind}.${alias.wireGroup}`) } : {}),
    details: { ...details, group: alias.wireGroup },
  };
}

/** An object answered: as is, or, under the alias, a copy in the alias's apiVersion and group names. */
export type AnswerForm = (obj: ApiObject) => ApiObject;

export function answerForm(store: ResourceStore, aliasApiVersion: string | undefined): AnswerForm {
  if (!aliasApiVersion) return (obj) => obj;
  return (obj) => {
    const copy = structuredClone(obj);
    if (copy.apiVersion === store.apiVersion) copy.apiVersion = aliasApiVersion;
    store.def.toWireGroup?.(copy);
    return copy;
  };
}

/**
 * A body sent under the alias (a create or update body, a patched object, an apply configuration)
 * becomes the resource's own: the alias's apiVersion the real one, then the resource's conversion.
 */
export function fromWireGroup(store: ResourceStore, obj: ApiObject, aliasApiVersion: string): void {
  if (obj.apiVersion === aliasApiVersion) obj.apiVersion = store.apiVersion;
  store.def.fromWireGroup?.(obj);
}
