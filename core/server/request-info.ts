// What a request asks for, derived from method + path as apiserver's RequestInfoFactory does.
import { parseFieldSelector } from '../api/selectors/field-selector.js';
import { isStatusError } from '../api/errors.js';
import { queryBool } from '../registry/list-options.js';

export interface RequestInfo {
  readonly isResourceRequest: boolean;
  readonly path: string;
  /** Kubernetes verb: get, list, watch, create, update, patch, delete, deletecollection; or the lowercased method for non-resource paths. */
  readonly verb: string;
  readonly apiPrefix: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly namespace: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
  /** Path segments after the group/version. */
  readonly parts: readonly string[];
  /** The raw `fieldSelector`/`labelSelector` of a list, watch or deletecollection ('' otherwise): authorization attributes. */
  readonly fieldSelector: string;
  readonly labelSelector: string;
}

/**
 * The name a list or watch pins with `fieldSelector=metadata.name=<name>`, as upstream's
 * RequestInfoFactory reads it (so authorizers can allow reading one object by name, e.g. a node
 * watching its own Node). A selector that does not parse, or a name that is not a valid path
 * segment, pins nothing.
 */
function fieldSelectorName(query: URLSearchParams): string {
  const fs = query.get('fieldSelector');
  if (!fs) return '';
  let name: string | undefined;
  try {
    name = parseFieldSelector(fs).requiredValue('metadata.name');
  } catch (e) {
    if (isStatusError(e)) return '';
    throw e;
  }
  if (name === undefined || name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('%')) return '';
  return name;
}

const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);
const METHOD_VERBS: Record<string, string> = { POST: 'create', PUT: 'update', PATCH: 'patch', GET: 'get', HEAD: 'get', DELETE: 'delete' };

export function requestInfo(method: string, path: string, query: URLSearchParams): RequestInfo {
  const nonResource: RequestInfo = {
    isResourceRequest: false, path, verb: method.toLowerCase(), apiPrefix: '', apiGroup: '', apiVersion: '',
    namespace: '', resource: '', subresource: '', name: '', parts: [], fieldSelector: '', labelSelector: '',
  };
  // upstream's splitPath over the already-decoded path: empty segments are kept ("/api//v1" names
  // no version), and a decoded %2F separates segments as a slash does.
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  const segments = trimmed === '' ? [] : trimmed.split('/');
  const prefix = segments[0];
  if (prefix !== 'api' && prefix !== 'apis') return nonResource;
  let rest = segments.slice(1);
  let group = '';
  if (prefix === 'apis') {
    if (rest.length < 2) return nonResource;
    group = rest[0]!;
    rest = rest.slice(1);
  } else if (rest.length < 1) return nonResource;
  const version = rest[0]!;
  rest = rest.slice(1);
  if (rest.length === 0) return nonResource;

  let verb = METHOD_VERBS[method.toUpperCase()] ?? method.toLowerCase();
  let watchPath = false;
  if (rest[0] === 'watch') { watchPath = true; rest = rest.slice(1); }
  let namespace = '';
  if (rest[0] === 'namespaces' && rest.length > 1) {
    namespace = rest[1]!;
    // namespaces/{ns}/status and /finalize are subresources of the namespace itself
    if (rest.length > 2 && !NAMESPACE_SUBRESOURCES.has(rest[2]!)) rest = rest.slice(2);
  }
  const resource = rest[0] ?? '';
  let name = rest[1] ?? '';
  const subresource = rest[2] ?? '';
  if (watchPath) verb = 'watch';
  else if (verb === 'get' && !name) {
    // ParameterCodec's boolean: only "0" and "false" (any case) are false, so `watch=True` (the
    // Python client's) and a bare `watch=` watch.
    verb = queryBool(query.get('watch')) ? 'watch' : 'list';
    name = fieldSelectorName(query);
  } else if (verb === 'delete' && !name) verb = 'deletecollection';
  // Read straight from the query, as upstream does, so another bad list option cannot lose them;
  // never for the deprecated /watch/ path, which upstream keeps out of selector authorization.
  const collection = !watchPath && (verb === 'list' || verb === 'watch' || verb === 'deletecollection');
  return {
    isResourceRequest: true, path, verb, apiPrefix: prefix, apiGroup: group, apiVersion: version,
    namespace, resource, subresource, name, parts: rest,
    fieldSelector: collection ? query.get('fieldSelector') ?? '' : '',
    labelSelector: collection ? query.get('labelSelector') ?? '' : '',
  };
}
