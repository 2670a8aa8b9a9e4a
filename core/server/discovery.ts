// API discovery's legacy documents (/api, /apis, /apis/<g>, /apis/<g>/<v>); the aggregated list is
// aggregated-discovery.ts.
import { createHash } from 'node:crypto';
import type { Resources } from '../registry/registry.js';
import type { ResourceDefinition } from '../registry/resource.js';
import { subresourceVerbs } from './subresource-verbs.js';

export const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

// Upstream's installer registers a group version's paths sorted ("in a deterministic (sorted)
// order"), and both discovery documents list resources and subresources in that order.
export const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

const storageVersionHash = (d: ResourceDefinition) =>
  createHash('sha256').update(`${d.group}/${d.version}/${d.kind}`).digest().subarray(0, 8).toString('base64');

function apiResource(d: ResourceDefinition, withHash: boolean) {
  return [
    {
      name: d.plural, singularName: d.singular, namespaced: d.scope === 'Namespaced', kind: d.kind,
      verbs: d.verbs ?? ALL_VERBS, ...(d.shortNames?.length ? { shortNames: d.shortNames } : {}),
      ...(d.categories?.length ? { categories: d.categories } : {}),
      // Only what a store keeps has a storage version (installer.go asks the storage for it): a review is answered, never stored.
      // Feature gate StorageVersionHash (beta, on) decides whether installer.go sets it at all.
      ...(d.review || !withHash ? {} : { storageVersionHash: storageVersionHash(d) }),
    },
    ...(d.subresources ?? []).map((s) => ({
      name: `${d.plural}/${s.name}`, singularName: '', namespaced: d.scope === 'Namespaced',
      ...(s.create ? { group: s.create.group, version: s.create.version, kind: s.create.kind } : { kind: d.kind }),
      verbs: subresourceVerbs(s),
    })),
  ];
}

export function apiVersions(resources: Resources, serverAddress: string) {
  return {
    kind: 'APIVersions',
    versions: resources.versions(''),
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

function apiGroup(resources: Resources, group: string) {
  const versions = resources.versions(group).map((v) => ({ groupVersion: `${group}/${v}`, version: v }));
  return { kind: 'APIGroup', apiVersion: 'v1', name: group, versions, preferredVersion: versions[0] };
}

export function apiGroupList(resources: Resources) {
  // The aggregator's /apis lists bare metav1.APIGroup values: only the list itself gets a TypeMeta.
  const groups = resources.groups().filter((g) => g !== '').map((g) => {
    const { kind: _kind, apiVersion: _apiVersion, ...group } = apiGroup(resources, g);
    return group;
  });
  return { kind: 'APIGroupList', apiVersion: 'v1', groups };
}

export function apiGroupDocument(resources: Resources, group: string) {
  return resources.versions(group).length ? apiGroup(resources, group) : undefined;
}

export function apiResourceList(resources: Resources, group: string, version: string, storageVersionHash = true) {
  const defs = resources.inGroupVersion(group, version);
  if (!defs.length) return undefined;
  const listed = defs.flatMap((d) => apiResource(d, storageVersionHash)).sort(byName);
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: group ? `${group}/${version}` : version, resources: listed };
}
