// client-go's ServerPreferredResources (and ServerPreferredNamespacedResources) through plat's
// client: every group version the server lists (/api, /apis), each resource once, in its group's
// preferred version when that serves it, subresources left out. A group version whose list fails
// is skipped and named in the error (discovery.ErrGroupDiscoveryFailed), the others still count.
// The namespace controller deletes what it finds; the garbage collector watches it.
import { parseGroupVersion } from '../api/group-version.js';
import { goClientErrorText } from './go-url-error.js';
import type { RestClient } from './rest-client.js';

export interface ApiResource {
  readonly name: string;
  readonly kind?: string;
  readonly namespaced?: boolean;
  readonly verbs?: readonly string[];
}

export interface ApiResourceList {
  readonly groupVersion: string;
  readonly resources: readonly ApiResource[];
}

interface ApiGroup {
  readonly name: string;
  readonly versions: readonly { readonly groupVersion: string; readonly version: string }[];
  readonly preferredVersion?: { readonly version: string };
}

/** discovery.ErrGroupDiscoveryFailed: the group versions whose resources could not be read. */
export class GroupDiscoveryFailedError extends Error {
  override readonly name = 'GroupDiscoveryFailedError';
  constructor(readonly groups: ReadonlyMap<string, string>) {
    const each = [...groups].map(([gv, err]) => `${gv}: ${err}`).sort();
    super(`unable to retrieve the complete list of server APIs: ${each.join(', ')}`);
  }
}

export interface Discovered {
  readonly lists: ApiResourceList[];
  readonly error: GroupDiscoveryFailedError | undefined;
}

/** The preferred namespaced resources (ServerPreferredNamespacedResources). */
export async function serverPreferredNamespacedResources(client: RestClient, signal?: AbortSignal): Promise<Discovered> {
  const { lists, error } = await serverPreferredResources(client, signal);
  const namespaced = lists.map((l) => ({ ...l, resources: l.resources.filter((r) => r.namespaced) })).filter((l) => l.resources.length > 0);
  return { lists: namespaced, error };
}

/**
 * The preferred resources: the lists found, and the error of those not found (the lists are
 * complete apart from them). Throws only when the group lists themselves fail.
 */
export async function serverPreferredResources(client: RestClient, signal?: AbortSignal): Promise<Discovered> {
  const o = signal ? { signal } : {};
  const core = await client.request<{ versions?: string[] }>('GET', '/api', o);
  const named = await client.request<{ groups?: ApiGroup[] }>('GET', '/apis', o);
  const coreVersions = core.versions ?? [];
  const groups: ApiGroup[] = [
    { name: '', versions: coreVersions.map((v) => ({ groupVersion: v, version: v })), ...(coreVersions[0] ? { preferredVersion: { version: coreVersions[0] } } : {}) },
    ...(named.groups ?? []),
  ];
  const failed = new Map<string, string>();
  const fetched = new Map<string, ApiResourceList>();
  await Promise.all(groups.flatMap((g) => g.versions.map(async ({ groupVersion }) => {
    const path = g.name ? `/apis/${groupVersion}` : `/api/${groupVersion}`;
    try {
      fetched.set(groupVersion, await client.request<ApiResourceList>('GET', path, o));
    } catch (e) {
      if (signal?.aborted) throw e;
      failed.set(groupVersion, goClientErrorText(e));
    }
  })));
  // Each group resource in one version: the first that serves it, replaced by the preferred one.
  const chosen = new Map<string, { groupVersion: string; resource: ApiResource }>();
  for (const g of groups) {
    for (const { groupVersion, version } of g.versions) {
      for (const resource of fetched.get(groupVersion)?.resources ?? []) {
        if (resource.name.includes('/')) continue;
        const key = `${g.name}/${resource.name}`;
        if (chosen.has(key) && version !== g.preferredVersion?.version) continue;
        chosen.set(key, { groupVersion, resource });
      }
    }
  }
  const byGroupVersion = new Map<string, ApiResource[]>();
  for (const { groupVersion, resource } of chosen.values()) {
    let list = byGroupVersion.get(groupVersion);
    if (!list) byGroupVersion.set(groupVersion, list = []);
    list.push(resource);
  }
  const lists = [...byGroupVersion].map(([groupVersion, resources]) => ({ groupVersion, resources }));
  return { lists, error: failed.size ? new GroupDiscoveryFailedError(failed) : undefined };
}

export interface GroupVersionResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly verbs: readonly string[];
  readonly kind: string;
  readonly namespaced: boolean;
}

/**
 * discovery.FilteredBy(SupportsAllVerbs{verbs}) then discovery.GroupVersionResources: a group
 * version that does not parse (schema.ParseGroupVersion) is left out and named in the error.
 */
export function deletableResources(lists: readonly ApiResourceList[], verbs: readonly string[] = ['delete']): { resources: GroupVersionResource[]; error: Error | undefined } {
  const resources: GroupVersionResource[] = [];
  const errs: string[] = [];
  for (const l of lists) {
    const deletable = l.resources.filter((r) => verbs.every((v) => r.verbs?.includes(v)));
    if (deletable.length === 0) continue;
    const gv = parseGroupVersion(l.groupVersion);
    if (!gv) {
      errs.push(`unexpected GroupVersion string: ${l.groupVersion}`);
      continue;
    }
    const { group, version } = gv;
    for (const r of deletable) resources.push({ group, version, resource: r.name, verbs: r.verbs ?? [], kind: r.kind ?? '', namespaced: !!r.namespaced });
  }
  return { resources, error: errs.length ? new Error(errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`) : undefined };
}
