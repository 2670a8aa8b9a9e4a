// Aggregated discovery (the APIGroupDiscoveryList at /api and /apis): whether the Accept header asks
// for it, the document, and its cache validators. Upstream's wrapper negotiates with
// DiscoveryEndpointRestrictions, which refuse every clause that does not name the aggregated kind,
// so a plain `application/json` before an aggregated clause does not stop the search; clauses are
// taken in goautoneg's q order. The ETag is the upper-case hex SHA-512 of the v2 list as encoded
// without its kind and apiVersion (calculateETag runs on the bare Go struct), the same for v2beta1,
// and `Vary: Accept` keeps the two apart in caches.
import type { Context } from 'koa';
import { goJsonMarshal } from '../api/go-json-marshal.js';
import type { Resources } from '../registry/registry.js';
import { parseAccept } from './output-media-type.js';
import { choosesPretty } from './pretty-print.js';
import { sendJson } from './respond.js';
import { sha512Etag } from './sha512-etag.js';
import { subresourceVerbs } from './subresource-verbs.js';
import { ALL_VERBS, byName } from './discovery.js';

const GROUP = 'apidiscovery.k8s.io';
const KIND = 'APIGroupDiscoveryList';
/** The discovery codec factory's serializers, in SupportedMediaTypes order, and which can stream. */
const SERIALIZERS = [
  { type: 'application', subType: 'json', stream: true },
  { type: 'application', subType: 'yaml', stream: false },
  { type: 'application', subType: 'vnd.kubernetes.protobuf', stream: true },
];

/** The aggregated discovery version asked for, and whether its JSON is indented (pretty-print.ts). */
export interface AggregatedRequest { readonly version: 'v2' | 'v2beta1'; readonly pretty: boolean }

/**
 * NegotiateMediaTypeOptions under DiscoveryEndpointRestrictions: the aggregated discovery asked
 * for, or undefined for the legacy documents (`prettyPrint` is the request's isPrettyPrint). plat
 * encodes the list in JSON whichever serializer's clause won, indented only where JSON's did.
 */
export function aggregatedRequested(accept: string | undefined, prettyPrint: boolean): AggregatedRequest | undefined {
  if (!accept) return undefined;
  for (const clause of parseAccept(accept)) {
    for (const s of SERIALIZERS) {
      const matches = (clause.type === s.type && (clause.subType === s.subType || clause.subType === '*'))
        || (clause.type === '*' && clause.subType === '*');
      if (!matches) continue;
      const stream = clause.params.get('stream');
      if (stream && (!s.stream || stream !== 'watch')) continue;
      if (clause.params.get('sv')) continue;
      const v = clause.params.get('v');
      if (clause.params.get('g') === GROUP && clause.params.get('as') === KIND && (v === 'v2' || v === 'v2beta1')) {
        return { version: v, pretty: choosesPretty(`${s.type}/${s.subType}`, clause.params, prettyPrint) };
      }
    }
  }
  return undefined;
}

/** The list's items for /api (`legacyCore`) or /apis, fields in the Go types' order, empty ones omitted as theirs are. */
function items(resources: Resources, legacyCore: boolean) {
  const groups = resources.groups().filter((g) => (legacyCore ? g === '' : g !== ''));
  return groups.map((g) => ({
    metadata: { ...(g ? { name: g } : {}), creationTimestamp: null },
    versions: resources.versions(g).map((v) => ({
      version: v,
      resources: [...resources.inGroupVersion(g, v)].sort((a, b) => byName({ name: a.plural }, { name: b.plural })).map((d) => {
        const responseKind = { group: d.group, version: d.version, kind: d.kind };
        const subresources = [...(d.subresources ?? [])].sort(byName).map((s) => ({
          subresource: s.name,
          responseKind: s.create ? { group: s.create.group, version: s.create.version, kind: s.create.kind } : responseKind,
          verbs: subresourceVerbs(s),
        }));
        return {
          resource: d.plural, responseKind, scope: d.scope, singularResource: d.singular,
          verbs: d.verbs ?? ALL_VERBS, ...(d.shortNames?.length ? { shortNames: d.shortNames } : {}),
          ...(d.categories?.length ? { categories: d.categories } : {}),
          ...(subresources.length ? { subresources } : {}),
        };
      }),
      freshness: 'Current',
    })),
  }));
}

interface Document { readonly list: ReturnType<typeof items>; readonly etag: string }

/**
 * Each list and its ETag, made once: the resources do not change once the server serves (as the
 * OpenAPI documents, built once too), and kubectl asks for both lists on every command.
 */
const documents = new WeakMap<Resources, Map<boolean, Document>>();

function documentFor(resources: Resources, legacyCore: boolean): Document {
  let byKind = documents.get(resources);
  if (!byKind) documents.set(resources, byKind = new Map());
  let doc = byKind.get(legacyCore);
  if (!doc) {
    const list = items(resources, legacyCore);
    // calculateETag's json.Marshal: no newline, unlike the answer's serializer.
    const etag = `"${sha512Etag(goJsonMarshal({ metadata: {}, items: list }))}"`;
    byKind.set(legacyCore, doc = { list, etag });
  }
  return doc;
}

/** ServeHTTPWithETag: the validators always, then a 304 for a matching If-None-Match, else the list. */
export function serveAggregatedDiscovery(ctx: Context, resources: Resources, legacyCore: boolean, { version, pretty }: AggregatedRequest): void {
  const { list, etag } = documentFor(resources, legacyCore);
  ctx.set('Etag', etag);
  ctx.set('Vary', 'Accept');
  ctx.set('Cache-Control', 'public');
  if (ctx.get('if-none-match') === etag) {
    ctx.status = 304;
    return;
  }
  ctx.state.output = { media: 'application/json', pretty };
  sendJson(ctx, 200, { kind: KIND, apiVersion: `${GROUP}/${version}`, metadata: {}, items: list });
  // Set verbatim (koa's ctx.type would append "; charset=utf-8"): kubectl 1.32 crashes on an
  // aggregated body labelled plain application/json.
  ctx.set('Content-Type', `application/json;g=${GROUP};v=${version};as=${KIND}`);
}
