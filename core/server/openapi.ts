// OpenAPI v3, generated from the same JSON schemas ajv validates with. kubectl needs, per
// kubectl-wire.md §4: root keys without a leading slash; every PATCH operation tagged with the GVK
// object and carrying an operation-level `fieldValidation` parameter; schema entries whose
// x-kubernetes-group-version-kind is an array.
import { sha512Etag } from './sha512-etag.js';
import { goJsonMarshal } from '../api/go-json-marshal.js';
import { withoutGoTypes } from '../api/go-types.js';
import { objectMetaSchema } from '../api/object-meta-schema.js';
import { serverRelativeUrl } from './openapi-handler.js';
import type { Resources } from '../registry/registry.js';
import type { JsonSchema, ResourceDefinition } from '../registry/resource.js';
import type { SubresourceCreate } from '../registry/strategy.js';
import { subresourceVerbs } from './subresource-verbs.js';

const META_REF = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const PATCH_REF = 'io.k8s.apimachinery.pkg.apis.meta.v1.Patch';
const STATUS_REF = 'io.k8s.apimachinery.pkg.apis.meta.v1.Status';
const PATCH_CONTENT = ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'];

const pascal = (s: string) => s.split(/[.\-]/).filter(Boolean).map((p) => p[0]!.toUpperCase() + p.slice(1)).join('');
export const schemaName = (d: Pick<ResourceDefinition, 'group' | 'version' | 'kind'>) =>
  `${d.group ? d.group.split('.').reverse().join('.') : 'platform.core'}.${d.version}.${d.kind}`;
const gvk = (d: ResourceDefinition) => ({ group: d.group, version: d.version, kind: d.kind });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const q = (name: string, description: string, type = 'string') => ({ name, in: 'query', description, schema: { type, uniqueItems: true } });

const writeParams = [
  q('dryRun', 'When present, indicates that modifications should not be persisted. Valid values are: - All: all dry run stages will be processed'),
  q('fieldManager', 'fieldManager is a name associated with the actor or entity that is making these changes.'),
  q('fieldValidation', 'fieldValidation instructs the server on how to handle objects in the request containing unknown or duplicate fields.'),
];
const listParams = ['allowWatchBookmarks:boolean', 'continue', 'fieldSelector', 'labelSelector', 'limit:integer', 'resourceVersion', 'resourceVersionMatch', 'sendInitialEvents:boolean', 'timeoutSeconds:integer', 'watch:boolean']
  .map((p) => { const [n, t] = p.split(':'); return q(n!, `${n} query parameter`, t ?? 'string'); });

/** The resource's schema in OpenAPI form: metadata as a $ref to ObjectMeta. */
function toOpenApi(d: ResourceDefinition): JsonSchema {
  const s = structuredClone(d.schema);
  s.description = d.description;
  s.properties = { ...s.properties, metadata: { description: 'Standard object\'s metadata.', default: {}, allOf: [ref(META_REF)] } as JsonSchema };
  s['x-kubernetes-group-version-kind'] = [gvk(d)];
  return s;
}

/** A create-only subresource's body kind (TokenRequest) in OpenAPI form. */
function subresourceSchema(c: SubresourceCreate): JsonSchema {
  const s = structuredClone(c.schema);
  s.properties = { ...s.properties, metadata: { description: 'Standard object\'s metadata.', default: {}, allOf: [ref(META_REF)] } as JsonSchema };
  s['x-kubernetes-group-version-kind'] = [{ group: c.group, version: c.version, kind: c.kind }];
  return s;
}

function operations(d: ResourceDefinition, base: string): Record<string, unknown> {
  const id = `${pascal(d.group || 'core')}${pascal(d.version)}${d.kind}`;
  const obj = ref(schemaName(d));
  const json = (schema: unknown) => ({ 'application/json': { schema } });
  const op = (verb: string, action: string, extra: Record<string, unknown>, suffix = '') => ({
    operationId: `${verb}${id}${suffix}`, 'x-kubernetes-action': action, 'x-kubernetes-group-version-kind': gvk(d), ...extra,
  });
  const patch = (suffix: string) => op('patch', 'patch', {
    requestBody: { content: Object.fromEntries(PATCH_CONTENT.map((c) => [c, { schema: ref(PATCH_REF) }])), required: true },
    responses: { '200': { description: 'OK', content: json(obj) }, '201': { description: 'Created', content: json(obj) } },
    parameters: [...writeParams, q('force', 'Force is going to "force" Apply requests.', 'boolean')],
  }, suffix);
  const put = (suffix: string) => op('replace', 'put', {
    requestBody: { content: { '*/*': { schema: obj } }, required: true },
    responses: { '200': { description: 'OK', content: json(obj) }, '201': { description: 'Created', content: json(obj) } },
    parameters: writeParams,
  }, suffix);
  const get = (suffix: string) => op('read', 'get', { responses: { '200': { description: 'OK', content: json(obj) } } }, suffix);
  const nameParam = [{ name: 'name', in: 'path', description: `name of the ${d.kind}`, required: true, schema: { type: 'string', uniqueItems: true } }];
  const paths: Record<string, unknown> = {
    [base]: {
      get: op('list', 'list', { parameters: listParams, responses: { '200': { description: 'OK', content: json({ type: 'object' }) } } }),
      post: op('create', 'post', {
        requestBody: { content: { '*/*': { schema: obj } }, required: true }, parameters: writeParams,
        responses: { '200': { description: 'OK', content: json(obj) }, '201': { description: 'Created', content: json(obj) } },
      }),
      delete: op('deletecollection', 'deletecollection', { responses: { '200': { description: 'OK', content: json(ref(STATUS_REF)) } } }),
      parameters: [],
    },
    [`${base}/{name}`]: {
      get: get(''), put: put(''), patch: patch(''),
      delete: op('delete', 'delete', { parameters: [q('dryRun', 'When present, indicates that modifications should not be persisted.')], responses: { '200': { description: 'OK', content: json(ref(STATUS_REF)) } } }),
      parameters: nameParam,
    },
  };
  // Only the verbs the resource serves (create-only reviews have no list or {name} paths).
  const verbs = new Set(d.verbs ?? ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
  const collection = paths[base] as Record<string, unknown>;
  if (!verbs.has('list')) delete collection['get'];
  if (!verbs.has('create')) delete collection['post'];
  if (!verbs.has('deletecollection')) delete collection['delete'];
  const named = paths[`${base}/{name}`] as Record<string, unknown>;
  if (!verbs.has('get')) delete named['get'];
  if (!verbs.has('update')) delete named['put'];
  if (!verbs.has('patch')) delete named['patch'];
  if (!verbs.has('delete')) delete named['delete'];
  if (Object.keys(named).length === 1) delete paths[`${base}/{name}`];
  for (const s of d.subresources ?? []) {
    const suffix = pascal(s.name);
    if (s.create) {
      const c = s.create;
      const body = ref(schemaName(c));
      paths[`${base}/{name}/${s.name}`] = {
        post: {
          operationId: `create${id}${suffix}`, 'x-kubernetes-action': 'post',
          'x-kubernetes-group-version-kind': { group: c.group, version: c.version, kind: c.kind },
          requestBody: { content: { '*/*': { schema: body } }, required: true }, parameters: writeParams,
          responses: { '200': { description: 'OK', content: json(body) }, '201': { description: 'Created', content: json(body) } },
        },
        parameters: nameParam,
      };
      continue;
    }
    const served = new Set(subresourceVerbs(s));
    paths[`${base}/{name}/${s.name}`] = {
      ...(served.has('get') ? { get: get(suffix) } : {}),
      ...(served.has('update') ? { put: put(suffix) } : {}),
      ...(served.has('patch') ? { patch: patch(suffix) } : {}),
      parameters: nameParam,
    };
  }
  return paths;
}

const sharedSchemas: Record<string, JsonSchema> = {
  [META_REF]: objectMetaSchema,
  [PATCH_REF]: { type: 'object', description: 'Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.' },
  [STATUS_REF]: {
    type: 'object', description: 'Status is a return value for calls that don\'t return other objects.',
    properties: {
      apiVersion: { type: 'string' }, kind: { type: 'string' }, code: { type: 'integer', format: 'int32' },
      message: { type: 'string' }, reason: { type: 'string' }, status: { type: 'string' },
      details: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, metadata: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    },
  },
};

export interface OpenApiDocs {
  /** The index's bytes (Go's json.Marshal: keys sorted) and their hash. */
  root: Buffer; rootHash: string;
  byGroupVersion: Map<string, { body: Buffer; hash: string }>;
  /** Last-Modified of every document: they are built once, together. */
  builtAt: Date;
}


/** One OpenAPI v3 document a group version, keyed as the index keys it (`api/v1`, `apis/<group>/<version>`). */
export interface GroupVersionDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, JsonSchema> };
}

/** The documents of every served group version, as objects: /openapi/v3 serves them, /openapi/v2 merges them. */
export function groupVersionDocuments(resources: Resources): Map<string, GroupVersionDocument> {
  const out = new Map<string, GroupVersionDocument>();
  for (const group of resources.groups()) {
    for (const version of resources.versions(group)) {
      const key = group ? `apis/${group}/${version}` : `api/${version}`;
      const defs = resources.inGroupVersion(group, version);
      out.set(key, {
        openapi: '3.0.0',
        info: { title: 'plat', version: version },
        paths: Object.assign({}, ...defs.flatMap((d) => {
          const prefix = `/${key}`;
          if (d.scope === 'Namespaced') return [operations(d, `${prefix}/namespaces/{namespace}/${d.plural}`)];
          return [operations(d, `${prefix}/${d.plural}`)];
        })),
        components: {
          // The Go type names serve the decoder's messages only; upstream's documents have none.
          schemas: withoutGoTypes({
            ...Object.fromEntries(defs.map((d) => [schemaName(d), toOpenApi(d)])),
            ...Object.fromEntries(defs.flatMap((d) => (d.subresources ?? []).flatMap((s) => (s.create ? [[schemaName(s.create), subresourceSchema(s.create)]] : [])))),
            ...sharedSchemas,
          }),
        },
      });
    }
  }
  return out;
}

export function buildOpenApi(resources: Resources): OpenApiDocs {
  const byGroupVersion = new Map<string, { body: Buffer; hash: string }>();
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const [key, doc] of groupVersionDocuments(resources)) {
    // kube-openapi's json.Marshal: HTML-safe escapes, no newline.
    const body = Buffer.from(goJsonMarshal(doc));
    const hash = sha512Etag(body);
    byGroupVersion.set(key, { body, hash });
    paths[key] = { serverRelativeURL: serverRelativeUrl(key, hash) };
  }
  const root = Buffer.from(goJsonMarshal({ paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) }));
  return { root, rootHash: sha512Etag(root), byGroupVersion, builtAt: new Date() };
}
