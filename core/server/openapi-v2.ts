// OpenAPI v2 (swagger 2.0) of every served resource, merged from the same group-version documents
// /openapi/v3 serves, as kube-apiserver serves one document for all of its APIs. kubectl reads it
// (as protobuf) to validate on the client when /openapi/v3 gives a kind no fieldValidation: the
// create-only reviews and kinds without PATCH. Schemas keep their v3 names under `definitions`;
// what v2 and kubectl's reader (kube-openapi util/proto) cannot take is dropped the way
// apiextensions' v2 conversion drops it: `nullable` (and a nullable property from `required`),
// the properties and items under x-kubernetes-preserve-unknown-fields, an array's type when it
// has no items. A single-$ref allOf becomes the $ref with its description, upstream's v2 form.
import { goJsonMarshal } from '../api/go-json-marshal.js';
import { encodeOpenApiV2 } from './openapi-v2-proto.js';
import { groupVersionDocuments } from './openapi.js';
import { sha512Etag } from './sha512-etag.js';
import type { Resources } from '../registry/registry.js';

type Json = Record<string, unknown>;

const V3_REF = '#/components/schemas/';
const V2_REF = '#/definitions/';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
// What plat answers with (a protobuf Accept gets JSON, so protobuf is not claimed).
const PRODUCES = ['application/json', 'application/yaml'];
const WATCH_PRODUCES = [...PRODUCES, 'application/json;stream=watch'];

const byKey = <T>(o: Record<string, T>): Record<string, T> =>
  Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** A v3 schema in v2 form; `definitions` names every target its $refs may take. */
export function toV2Schema(s: Json): Json {
  const out: Json = {};
  const allOf = s['allOf'];
  if (Array.isArray(allOf) && allOf.length === 1 && typeof (allOf[0] as Json)['$ref'] === 'string' && s['type'] === undefined) {
    out['$ref'] = ((allOf[0] as Json)['$ref'] as string).replace(V3_REF, V2_REF);
    if (s['description'] !== undefined) out['description'] = s['description'];
    return out;
  }
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  const props = s['properties'] as Record<string, Json> | undefined;
  for (const [k, v] of Object.entries(s)) {
    if (k === 'nullable') continue;
    if (k === '$ref') { out[k] = (v as string).replace(V3_REF, V2_REF); continue; }
    if (k === 'properties') {
      if (!preserve) out[k] = byKey(Object.fromEntries(Object.entries(v as Record<string, Json>).map(([n, p]) => [n, toV2Schema(p)])));
      continue;
    }
    if (k === 'items') {
      if (!preserve) out[k] = Array.isArray(v) ? v.map((i) => toV2Schema(i as Json)) : toV2Schema(v as Json);
      continue;
    }
    if (k === 'additionalProperties') { out[k] = typeof v === 'object' && v !== null ? toV2Schema(v as Json) : v; continue; }
    if (k === 'allOf') { out[k] = (v as Json[]).map(toV2Schema); continue; }
    if (k === 'required' && Array.isArray(v) && props) {
      const kept = (v as string[]).filter((n) => props[n]?.['nullable'] !== true);
      if (kept.length) out[k] = kept;
      continue;
    }
    out[k] = v;
  }
  if (out['type'] === 'array' && out['items'] === undefined) delete out['type'];
  return out;
}

/** A v3 parameter (`schema: {type, uniqueItems}`) in v2 form: the schema's keys inline. */
function toV2Parameter(p: Json): Json {
  const { schema, ...rest } = p as Json & { schema?: Json };
  return { ...rest, ...(schema ?? {}) };
}

function toV2Operation(op: Json, method: string): Json {
  const body = (op['requestBody'] as { content?: Record<string, { schema?: Json }>; required?: boolean } | undefined);
  const contentTypes = body?.content ? Object.keys(body.content) : ['*/*'];
  const bodySchema = body?.content ? Object.values(body.content)[0]?.schema : undefined;
  const parameters = [
    ...(bodySchema ? [{ in: 'body', name: 'body', required: true, schema: toV2Schema(bodySchema) }] : []),
    ...((op['parameters'] as Json[] | undefined) ?? []).map(toV2Parameter),
  ];
  const responses: Record<string, Json> = {};
  for (const [code, r] of Object.entries((op['responses'] as Record<string, { description: string; content?: Record<string, { schema?: Json }> }>) ?? {})) {
    const schema = r.content?.['application/json']?.schema;
    responses[code] = { description: r.description, ...(schema ? { schema: toV2Schema(schema) } : {}) };
  }
  responses['401'] = { description: 'Unauthorized' };
  const extensions = Object.fromEntries(Object.entries(op).filter(([k]) => k.startsWith('x-')));
  return {
    consumes: contentTypes,
    produces: method === 'get' && op['x-kubernetes-action'] === 'list' ? WATCH_PRODUCES : PRODUCES,
    schemes: ['https'],
    operationId: op['operationId'],
    ...(parameters.length ? { parameters } : {}),
    responses: byKey(responses),
    ...extensions,
  };
}

/** The swagger 2.0 document of every served resource. */
export function swaggerDocument(resources: Resources, version: string): Json {
  const paths: Record<string, Json> = {};
  const definitions: Record<string, Json> = {};
  for (const doc of groupVersionDocuments(resources).values()) {
    for (const [p, item] of Object.entries(doc.paths)) {
      const out: Json = {};
      for (const m of METHODS) if (item[m]) out[m] = toV2Operation(item[m] as Json, m);
      const params = item['parameters'] as Json[] | undefined;
      if (params?.length) out['parameters'] = params.map(toV2Parameter);
      paths[p] = out;
    }
    for (const [name, s] of Object.entries(doc.components.schemas)) definitions[name] ??= toV2Schema(s as Json);
  }
  return {
    swagger: '2.0',
    info: { title: 'Kubernetes', version },
    paths: byKey(paths),
    definitions: byKey(definitions),
    securityDefinitions: { BearerToken: { description: 'Bearer Token authentication', type: 'apiKey', name: 'authorization', in: 'header' } },
    security: [{ BearerToken: [] }],
  };
}

export interface OpenApiV2 {
  /** json.Marshal's bytes; their SHA-512 is the ETag of both encodings, as kube-openapi's. */
  readonly json: Buffer;
  readonly etag: string;
  /** The gnostic openapi_v2.Document protobuf, encoded on first use and kept. */
  proto(): Buffer;
  /** Last-Modified: when the JSON was built. */
  readonly builtAt: Date;
}

/** Built once per set of served resources (the caller keeps it), as upstream builds its spec once. */
export function buildOpenApiV2(resources: Resources, version: string): OpenApiV2 {
  const doc = swaggerDocument(resources, version);
  const json = Buffer.from(goJsonMarshal(doc));
  let proto: Buffer | undefined;
  return { json, etag: sha512Etag(json), builtAt: new Date(), proto: () => (proto ??= encodeOpenApiV2(doc)) };
}
