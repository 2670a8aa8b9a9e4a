// The protobuf kube-openapi serves for /openapi/v2: the swagger document as gnostic-models'
// openapi_v2.Document (openapiv2/OpenAPIv2.proto), what ParseDocument then proto.Marshal make of
// the JSON. Fields go in field-number order, proto3 defaults (empty strings, false, 0) are left
// out, a map is its repeated Named* pairs in the document's key order, and every value gnostic
// keeps as an Any (defaults, examples, enum values, x- extensions) carries its YAML text, which is
// what kubectl reads back. Only what swaggerDocument writes needs to be understood; anything else
// in a schema is left out rather than guessed at.
import { yamlV3 } from './yaml-v3.js';

type Json = Record<string, unknown>;

// ---- The wire: varints, tags, length-delimited fields.

function varint(n: number | bigint): Buffer {
  let v = BigInt.asUintN(64, BigInt(n));
  const out: number[] = [];
  while (v >= 0x80n) { out.push(Number(v & 0x7fn) | 0x80); v >>= 7n; }
  out.push(Number(v));
  return Buffer.from(out);
}
const tag = (no: number, wire: number) => varint((no << 3) | wire);
/** A message (or bytes) field: always written, even empty, as a set message field is. */
const message = (no: number, body: Buffer): Buffer => Buffer.concat([tag(no, 2), varint(body.length), body]);
const string = (no: number, s: unknown): Buffer[] => (typeof s === 'string' && s !== '' ? [message(no, Buffer.from(s))] : []);
const strings = (no: number, a: unknown): Buffer[] => (Array.isArray(a) ? a.map((s) => message(no, Buffer.from(String(s)))) : []);
const bool = (no: number, b: unknown): Buffer[] => (b === true ? [Buffer.concat([tag(no, 0), varint(1)])] : []);
const int64 = (no: number, n: unknown): Buffer[] => (typeof n === 'number' && n !== 0 ? [Buffer.concat([tag(no, 0), varint(Math.trunc(n))])] : []);
const double = (no: number, n: unknown): Buffer[] => {
  if (typeof n !== 'number' || n === 0) return [];
  const b = Buffer.alloc(8);
  b.writeDoubleLE(n);
  return [Buffer.concat([tag(no, 1), b])];
};
const msg = (no: number, parts: Buffer[]): Buffer => message(no, Buffer.concat(parts));
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

// ---- gnostic's messages.

/** Any{yaml = 2}. */
const any = (no: number, v: unknown): Buffer => msg(no, string(2, yamlV3(v)));
const anyIf = (no: number, v: unknown): Buffer[] => (v === undefined ? [] : [any(no, v)]);
/** NamedAny{name = 1, value = 2} for every x- key, in the object's order. */
const extensions = (no: number, o: Json): Buffer[] =>
  Object.entries(o).filter(([k]) => k.startsWith('x-')).map(([k, v]) => msg(no, [...string(1, k), any(2, v)]));
/** A Named* pair: name = 1, value = 2. */
const named = (no: number, name: string, value: Buffer[]): Buffer => msg(no, [...string(1, name), msg(2, value)]);

function schema(s: Json): Buffer[] {
  const props = s['properties'];
  const items = s['items'];
  const additional = s['additionalProperties'];
  const type = s['type'];
  return [
    ...string(1, s['$ref']), ...string(2, s['format']), ...string(3, s['title']), ...string(4, s['description']),
    ...anyIf(5, s['default']), ...double(6, s['multipleOf']), ...double(7, s['maximum']), ...bool(8, s['exclusiveMaximum']),
    ...double(9, s['minimum']), ...bool(10, s['exclusiveMinimum']), ...int64(11, s['maxLength']), ...int64(12, s['minLength']),
    ...string(13, s['pattern']), ...int64(14, s['maxItems']), ...int64(15, s['minItems']), ...bool(16, s['uniqueItems']),
    ...int64(17, s['maxProperties']), ...int64(18, s['minProperties']), ...strings(19, s['required']),
    ...(Array.isArray(s['enum']) ? s['enum'].map((e) => any(20, e)) : []),
    // AdditionalPropertiesItem: oneof schema = 1 | boolean = 2 (a false is written: a set oneof).
    ...(isObject(additional) ? [msg(21, [msg(1, schema(additional))])] : typeof additional === 'boolean' ? [msg(21, [Buffer.concat([tag(2, 0), varint(additional ? 1 : 0)])])] : []),
    // TypeItem{value = 1}: one type, or several.
    ...(typeof type === 'string' ? [msg(22, strings(1, [type]))] : Array.isArray(type) ? [msg(22, strings(1, type))] : []),
    // ItemsItem{schema = 1}: one schema, or several.
    ...(isObject(items) ? [msg(23, [msg(1, schema(items))])] : Array.isArray(items) ? [msg(23, items.map((i) => msg(1, schema(i as Json))))] : []),
    ...(Array.isArray(s['allOf']) ? s['allOf'].map((a) => msg(24, schema(a as Json))) : []),
    // Properties{additional_properties = 1: NamedSchema}.
    ...(isObject(props) ? [msg(25, Object.entries(props).map(([n, p]) => named(1, n, schema(p as Json))))] : []),
    ...string(26, s['discriminator']), ...bool(27, s['readOnly']),
    ...anyIf(30, s['example']),
    ...extensions(31, s),
  ];
}

/** ParametersItem{parameter = 1: Parameter{body_parameter = 1 | non_body_parameter = 2}}. */
function parameter(p: Json): Buffer[] {
  if (typeof p['$ref'] === 'string') return [msg(2, string(1, p['$ref']))];
  if (p['in'] === 'body') {
    const body = [...string(1, p['description']), ...string(2, p['name']), ...string(3, p['in']), ...bool(4, p['required']),
      ...(isObject(p['schema']) ? [msg(5, schema(p['schema']))] : []), ...extensions(6, p)];
    return [msg(1, [msg(1, body)])];
  }
  // QueryParameterSubSchema (3) and PathParameterSubSchema (4) of NonBodyParameter: the path one
  // has no allow_empty_value, so its later fields sit one number lower.
  const path = p['in'] === 'path';
  const o = path ? -1 : 0;
  const sub = [
    ...bool(1, p['required']), ...string(2, p['in']), ...string(3, p['description']), ...string(4, p['name']),
    ...(path ? [] : bool(5, p['allowEmptyValue'])),
    ...string(6 + o, p['type']), ...string(7 + o, p['format']), ...string(9 + o, p['collectionFormat']), ...anyIf(10 + o, p['default']),
    ...bool(20 + o, p['uniqueItems']),
    ...(Array.isArray(p['enum']) ? p['enum'].map((e) => any(21 + o, e)) : []),
    ...extensions(23 + o, p),
  ];
  return [msg(1, [msg(2, [msg(path ? 4 : 3, sub)])])];
}

function operation(op: Json): Buffer[] {
  const responses = (op['responses'] ?? {}) as Record<string, Json>;
  return [
    ...strings(1, op['tags']), ...string(2, op['summary']), ...string(3, op['description']), ...string(5, op['operationId']),
    ...strings(6, op['produces']), ...strings(7, op['consumes']),
    ...((op['parameters'] as Json[] | undefined) ?? []).map((p) => msg(8, parameter(p))),
    // Responses{response_code = 1: NamedResponseValue{value: ResponseValue{response = 1: Response}}}.
    msg(9, Object.entries(responses).map(([code, r]) => named(1, code, [msg(1, [
      ...string(1, r['description']), ...(isObject(r['schema']) ? [msg(2, [msg(1, schema(r['schema']))])] : []), ...extensions(5, r),
    ])]))),
    ...strings(10, op['schemes']), ...bool(11, op['deprecated']),
    ...extensions(13, op),
  ];
}

const PATH_ITEM_FIELDS = { get: 2, put: 3, post: 4, delete: 5, options: 6, head: 7, patch: 8 } as const;

function pathItem(item: Json): Buffer[] {
  return [
    ...string(1, item['$ref']),
    ...Object.entries(PATH_ITEM_FIELDS).flatMap(([m, no]) => (isObject(item[m]) ? [msg(no, operation(item[m]))] : [])),
    ...((item['parameters'] as Json[] | undefined) ?? []).map((p) => msg(9, parameter(p))),
    ...extensions(10, item),
  ];
}

/** SecurityDefinitionsItem: basic = 1, apiKey = 2 (the only kinds a Kubernetes server publishes). */
function securityDefinition(d: Json): Buffer[] {
  if (d['type'] === 'basic') return [msg(1, [...string(1, d['type']), ...string(2, d['description']), ...extensions(3, d)])];
  return [msg(2, [...string(1, d['type']), ...string(2, d['name']), ...string(3, d['in']), ...string(4, d['description']), ...extensions(5, d)])];
}

/** proto.Marshal(openapi_v2.ParseDocument(json.Marshal(doc))). */
export function encodeOpenApiV2(doc: Json): Buffer {
  const info = (doc['info'] ?? {}) as Json;
  const paths = (doc['paths'] ?? {}) as Record<string, Json>;
  const definitions = doc['definitions'] as Record<string, Json> | undefined;
  const security = doc['securityDefinitions'] as Record<string, Json> | undefined;
  return Buffer.concat([
    ...string(1, doc['swagger']),
    msg(2, [...string(1, info['title']), ...string(2, info['version']), ...string(3, info['description']), ...extensions(7, info)]),
    ...string(3, doc['host']), ...string(4, doc['basePath']),
    ...strings(5, doc['schemes']), ...strings(6, doc['consumes']), ...strings(7, doc['produces']),
    // Paths{vendor_extension = 1, path = 2: NamedPathItem}.
    msg(8, [...extensions(1, paths), ...Object.entries(paths).filter(([p]) => p.startsWith('/')).map(([p, item]) => named(2, p, pathItem(item)))]),
    ...(definitions ? [msg(9, Object.entries(definitions).map(([n, s]) => named(1, n, schema(s))))] : []),
    // SecurityRequirement{additional_properties = 1: NamedStringArray{value: StringArray{value = 1}}}.
    ...((doc['security'] as Record<string, string[]>[] | undefined) ?? []).map((req) =>
      msg(12, Object.entries(req).map(([n, scopes]) => named(1, n, strings(1, scopes))))),
    ...(security ? [msg(13, Object.entries(security).map(([n, d]) => named(1, n, securityDefinition(d))))] : []),
    ...extensions(16, doc),
  ]);
}
