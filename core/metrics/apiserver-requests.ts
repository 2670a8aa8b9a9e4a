// The API server's request families as 1.32's endpoints/metrics registers them (all STABLE):
// apiserver_request_total, apiserver_request_duration_seconds and apiserver_response_sizes, with
// upstream's names, labels, help texts and buckets. What upstream's InstrumentRouteFunc records
// for a resource request (and healthz's InstrumentHandlerFunc for /healthz, /livez, /readyz):
// the reported verb (LIST for a GET of a collection, WATCH, APPLY, CONNECT, `other`), the dry-run
// value, the route's scope, the answer's code; latency from the request's arrival to the end of
// its handler (a WATCH's is the watch's whole life, as upstream's); the size of the answer's body
// for GET and LIST routes only. The three children of a series are found together, through nested
// maps of label values, so a request costs a few Map lookups and no label string.
import { Children } from './children.js';
import type { CounterChild, HistogramChild, MetricsRegistry } from './registry.js';

/** 1.32's requestLatencies buckets. */
export const REQUEST_DURATION_BUCKETS = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];
/** ExponentialBuckets(1000, 10, 7): 1 KB to 1 GB. */
export const RESPONSE_SIZE_BUCKETS = [1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9];

/** APIServerComponent: the component label of resource requests (health paths have none). */
export const APISERVER_COMPONENT = 'apiserver';

/** The labels of one request, as MonitorRequest receives them. */
export interface RequestLabels {
  /** The reported verb (reportedVerb below). */
  readonly verb: string;
  readonly dryRun: string;
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subresource: string;
  readonly scope: string;
  readonly component: string;
  /** The route's own verb is GET or LIST: the answer's size is recorded. */
  readonly sized: boolean;
}

interface Series { readonly total: Map<number, CounterChild>; readonly duration: HistogramChild; readonly sizes?: HistogramChild }

const VALID_VERBS = new Set(['APPLY', 'CONNECT', 'CREATE', 'DELETE', 'DELETECOLLECTION', 'GET', 'LIST', 'PATCH', 'POST', 'PROXY', 'PUT', 'UPDATE', 'WATCH', 'WATCHLIST']);
const CONNECT_SUBRESOURCES = new Set(['log', 'exec', 'portforward', 'attach', 'proxy']);
const APPLY_PATCH_TYPE = 'application/apply-patch+yaml';

/** getVerbIfWatch: a GET whose first `watch` value is anything but 0 or false (any case). */
export function watchRequested(query: URLSearchParams): boolean {
  const w = query.get('watch');
  if (w === null) return false;
  const v = w.toLowerCase();
  return v !== '0' && v !== 'false';
}

/**
 * cleanVerb(CanonicalVerb(method, scope), routeVerb, ...): a GET or HEAD of a collection is LIST,
 * the deprecated /watch/ routes and `?watch` are WATCH, a PATCH of the apply type is APPLY, a
 * connect subresource is CONNECT; a method outside upstream's list is `other`.
 */
export function reportedVerb(method: string, scope: string, watchRoute: boolean, query: URLSearchParams, contentType: string, subresource: string): string {
  if (watchRoute) return 'WATCH';
  let verb = method.toUpperCase();
  if (verb === 'GET' || verb === 'HEAD') verb = scope !== 'resource' && scope !== '' ? 'LIST' : 'GET';
  if ((method === 'GET' || method === 'LIST') && watchRequested(query)) verb = 'WATCH';
  if (verb === 'PATCH' && contentType === APPLY_PATCH_TYPE) verb = 'APPLY';
  if (subresource && CONNECT_SUBRESOURCES.has(subresource)) verb = 'CONNECT';
  return VALID_VERBS.has(verb) ? verb : 'other';
}

/** cleanDryRun: '' without it, `invalid` for a value other than All, else the sorted distinct values. */
export function dryRunLabel(rawQuery: string, query: URLSearchParams): string {
  if (!rawQuery.includes('dryRun')) return '';
  const values = query.getAll('dryRun');
  if (values.length === 0) return '';
  if (values.some((v) => v !== 'All')) return 'invalid';
  return 'All';
}

export class RequestMetrics {
  readonly #total;
  readonly #duration;
  readonly #sizes;
  /** By component, group, version, resource, subresource, scope, verb, dry run, sized. */
  readonly #series: Children<Series>;

  constructor(registry: MetricsRegistry) {
    this.#total = registry.counter({
      name: 'apiserver_request_total', stabilityLevel: 'STABLE',
      help: 'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
      labelNames: ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component', 'code'],
    });
    this.#duration = registry.histogram({
      name: 'apiserver_request_duration_seconds', stabilityLevel: 'STABLE',
      help: 'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
      labelNames: ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component'], buckets: REQUEST_DURATION_BUCKETS,
    });
    this.#sizes = registry.histogram({
      name: 'apiserver_response_sizes', stabilityLevel: 'STABLE',
      help: 'Response size distribution in bytes for each group, version, verb, resource, subresource, scope and component.',
      labelNames: ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'], buckets: RESPONSE_SIZE_BUCKETS,
    });
    this.#series = new Children(([component, group, version, resource, subresource, scope, verb, dryRun, sized]) => ({
      total: new Map(),
      duration: this.#duration.labels(verb!, dryRun!, group!, version!, resource!, subresource!, scope!, component!),
      ...(sized ? { sizes: this.#sizes.labels(verb!, group!, version!, resource!, subresource!, scope!, component!) } : {}),
    }));
  }

  /** MonitorRequest: one request served, with its code, body size in bytes (unknown: not observed) and duration in seconds. */
  record(l: RequestLabels, code: number, bytes: number | undefined, seconds: number): void {
    const s = this.#series.get(l.component, l.group, l.version, l.resource, l.subresource, l.scope, l.verb, l.dryRun, l.sized ? 'sized' : '');
    let total = s.total.get(code);
    if (!total) s.total.set(code, (total = this.#total.labels(l.verb, l.dryRun, l.group, l.version, l.resource, l.subresource, l.scope, l.component, String(code))));
    total.inc();
    s.duration.observe(seconds);
    if (bytes !== undefined) s.sizes?.observe(bytes);
  }
}
