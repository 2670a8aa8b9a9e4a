// API discovery: the legacy documents (/api, /apis, /apis/<g>, /apis/<g>/<v>) and, only when the
// Accept header asks for it, the aggregated APIGroupDiscoveryList with its exact Content-Type
// (kubectl 1.32 crashes on an aggregated body labelled plain application/json).
import { createHash } from 'node:crypto';
import type { Resources } from '../registry/registry.js';
import type { ResourceDefinition } from '../registry/resource.js';
import { subresourceVerbs } from './subresource-verbs.js';

const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/** The aggregated-discovery media type the client accepts first, if any. */
export function aggregatedRequested(accept: string | undefined): string | undefined {
  for (const clause of (accept ?? '').split(',')) {
    const [type, ...params] = clause.split(';').map((s) => s.trim());
    const p = new Map(params.map((x) => x.split('=') as [string, string]));
    if (type === 'application/json' && p.get('g') === 'apidiscovery.k8s.io' && p.get('as') === 'APIGroupDiscoveryList') {
      const v = p.get('v');
      if (v === 'v2' || v === 'v2beta1') return `application/json;g=apidiscovery.k8s.io;v=${v};as=APIGroupDiscoveryList`;
    }
    if (type === 'application/json' || type === '*/*') return undefined;
  }
  return undefined;
}

// Upstream's installer registers a group version's paths sorted ("in a deterministic (sorted)
// order"), and both discovery documents list resources and subresources in that order.
const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

const storageVersionHash = (d: ResourceDefinition) =>
  createHash('sha256').update(`${d.group}/${d.version}/${d.kind}`).digest().subarray(0, 8).toString('base64');

function apiResource(d: ResourceDefinition) {
  return [
    {
      name: d.plural, singularName: d.singular, namespaced: d.scope === 'Namespaced', kind: d.kind,
      verbs: d.verbs ?? ALL_VERBS, ...(d.shortNames?.length ? { shortNames: d.shortNames } : {}),
      ...(d.categories?.length ? { categories: d.categories } : {}),
      storageVersionHash: storageVersionHash(d),
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

export function apiResourceList(resources: Resources, group: string, version: string) {
  const defs = resources.inGroupVersion(group, version);
  if (!defs.length) return undefined;
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: group ? `${group}/${version}` : version, resources: defs.flatMap(apiResource).sort(byName) };
}

/** The aggregated list for /api (`legacyCore`) or /apis, in the version `mediaType` names (v2 or v2beta1). */
export function aggregatedDiscovery(resources: Resources, legacyCore: boolean, mediaType = '') {
  const groups = resources.groups().filter((g) => (legacyCore ? g === '' : g !== ''));
  const version = /;v=v2beta1;/.test(mediaType) ? 'v2beta1' : 'v2';
  return {
    kind: 'APIGroupDiscoveryList', apiVersion: `apidiscovery.k8s.io/${version}`, metadata: {},
    items: groups.map((g) => ({
      metadata: { name: g, creationTimestamp: null },
      versions: resources.versions(g).map((v) => ({
        version: v, freshness: 'Current',
        resources: [...resources.inGroupVersion(g, v)].sort((a, b) => byName({ name: a.plural }, { name: b.plural })).map((d) => {
          const responseKind = { group: d.group, version: d.version, kind: d.kind };
          return {
            resource: d.plural, responseKind, scope: d.scope, singularResource: d.singular,
            verbs: d.verbs ?? ALL_VERBS, ...(d.shortNames?.length ? { shortNames: d.shortNames } : {}),
            ...(d.categories?.length ? { categories: d.categories } : {}),
            subresources: [...(d.subresources ?? [])].sort(byName).map((s) => ({
              subresource: s.name,
              responseKind: s.create ? { group: s.create.group, version: s.create.version, kind: s.create.kind } : responseKind,
              verbs: subresourceVerbs(s),
            })),
          };
        }),
      })),
    })),
  };
}
