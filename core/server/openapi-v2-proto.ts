// The protobuf kube-openapi serves for /openapi/v2: the swagger document as gnostic-models'
// openapi_v2.Document (openapiv2/OpenAPIv2.proto), what ParseDocument then proto.Marshal make of
// the JSON. Fields go in field-number order, proto3 defaults (empty strings, false, 0) are left
// out, a map is its repeated Named* pairs in the document's key order, and every value gnostic
// keeps as an Any (defaults, examples, enum values, x- extensions) carries its YAML text, which is
// what kubectl reads back. Only what swaggerDocument writes needs to be understood; anything else
// in a schema is left out rather than guessed at.
import { yamlV3 } from './yaml-v3.js';

type Json = Record<string, unknown>;

const VARINT = 0;
const FIXED64 = 1;
const LENGTH_DELIMITED = 2;

const varintSize = (n: number) => { let size = 1; for (; n >= 0x80; n = Math.floor(n / 128)) size++; return size; };

/** One growing buffer the whole document is written into, in order. */
class Writer {
  private buf = Buffer.allocUnsafe(64 * 1024);
  private pos = 0;

  private reserve(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }
  /** A non-negative integer below 2^53 (tags, lengths, counts), or a negative one as its 64-bit two's complement. */
  private varint(n: number): void {
    if (n < 0) {
      let v = BigInt.asUintN(64, BigInt(n));
      this.reserve(10);
      for (; v >= 0x80n; v >>= 7n) this.buf[this.pos++] = Number(v & 0x7fn) | 0x80;
      this.buf[this.pos++] = Number(v);
      return;
    }
    this.reserve(8);
    for (; n >= 0x80; n = Math.floor(n / 128)) this.buf[this.pos++] = (n % 128) | 0x80;
    this.buf[this.pos++] = n;
  }
  private tag(no: number, wire: number): void { this.varint(no * 8 + wire); }

  /**
   * A message field written by `body`, always there even when empty, as a set message field is:
   * its length goes in front once the body is written, which moves up by that length's size.
   */
  message(no: number, body: () => void): this {
    this.tag(no, LENGTH_DELIMITED);
    const start = this.pos;
    body();
    const length = this.pos - start;
    const size = varintSize(length);
    this.reserve(size);
    this.buf.copy(this.buf, start + size, start, this.pos);
    const after = this.pos + size;
    this.pos = start;
    this.varint(length);
    this.pos = after;
    return this;
  }
  /** A string field; proto3 leaves an empty one out. */
  string(no: number, s: unknown): this {
    return typeof s === 'string' && s !== '' ? this.text(no, s) : this;
  }
  /** A repeated string field: every element, empty ones too. */
  strings(no: number, a: unknown): this {
    if (Array.isArray(a)) for (const s of a) this.text(no, String(s));
    return this;
  }
  private text(no: number, s: string): this {
    const length = Buffer.byteLength(s);
    this.tag(no, LENGTH_DELIMITED);
    this.varint(length);
    this.reserve(length);
    this.pos += this.buf.write(s, this.pos);
    return this;
  }
  bool(no: number, b: unknown, always = false): this {
    if (b !== true && !(always && b === false)) return this;
    this.tag(no, VARINT);
    this.varint(b === true ? 1 : 0);
    return this;
  }
  int64(no: number, n: unknown): this {
    if (typeof n !== 'number' || n === 0) return this;
    this.tag(no, VARINT);
    this.varint(Math.trunc(n));
    return this;
  }
  double(no: number, n: unknown): this {
    if (typeof n !== 'number' || n === 0) return this;
    this.tag(no, FIXED64);
    this.reserve(8);
    this.pos = this.buf.writeDoubleLE(n, this.pos);
    return this;
  }
  finish(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.pos));
  }
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const each = <T>(a: unknown, f: (x: T) => void) => { if (Array.isArray(a)) for (const x of a) f(x as T); };

// ---- gnostic's messages.

/** Any{yaml = 2}. */
const any = (w: Writer, no: number, v: unknown) => { if (v !== undefined) w.message(no, () => w.string(2, yamlV3(v))); };
/** NamedAny{name = 1, value = 2} for every x- key, in the object's order. */
function extensions(w: Writer, no: number, o: Json): void {
  for (const [k, v] of Object.entries(o)) if (k.startsWith('x-')) w.message(no, () => { w.string(1, k); any(w, 2, v); });
}
/** A Named* pair: name = 1, value = 2. */
const named = (w: Writer, no: number, name: string, value: () => void) => w.message(no, () => { w.string(1, name); w.message(2, value); });

function schema(w: Writer, s: Json): void {
  const additional = s['additionalProperties'];
  const type = s['type'];
  const items = s['items'];
  const props = s['properties'];
  w.string(1, s['$ref']).string(2, s['format']).string(3, s['title']).string(4, s['description']);
  any(w, 5, s['default']);
  w.double(6, s['multipleOf']).double(7, s['maximum']).bool(8, s['exclusiveMaximum']).double(9, s['minimum']).bool(10, s['exclusiveMinimum'])
    .int64(11, s['maxLength']).int64(12, s['minLength']).string(13, s['pattern']).int64(14, s['maxItems']).int64(15, s['minItems'])
    .bool(16, s['uniqueItems']).int64(17, s['maxProperties']).int64(18, s['minProperties']).strings(19, s['required']);
  each(s['enum'], (e) => any(w, 20, e));
  // AdditionalPropertiesItem: oneof schema = 1 | boolean = 2 (a false is written: a set oneof).
  if (isObject(additional)) w.message(21, () => w.message(1, () => schema(w, additional)));
  else if (typeof additional === 'boolean') w.message(21, () => w.bool(2, additional, true));
  // TypeItem{value = 1}: one type, or several.
  if (typeof type === 'string' || Array.isArray(type)) w.message(22, () => w.strings(1, Array.isArray(type) ? type : [type]));
  // ItemsItem{schema = 1}: one schema, or several.
  if (isObject(items)) w.message(23, () => w.message(1, () => schema(w, items)));
  else if (Array.isArray(items)) w.message(23, () => each<Json>(items, (i) => w.message(1, () => schema(w, i))));
  each<Json>(s['allOf'], (a) => w.message(24, () => schema(w, a)));
  // Properties{additional_properties = 1: NamedSchema}.
  if (isObject(props)) w.message(25, () => { for (const [n, p] of Object.entries(props)) named(w, 1, n, () => schema(w, p as Json)); });
  w.string(26, s['discriminator']).bool(27, s['readOnly']);
  any(w, 30, s['example']);
  extensions(w, 31, s);
}

/** ParametersItem{parameter = 1: Parameter{body_parameter = 1 | non_body_parameter = 2} | json_reference = 2}. */
function parameter(w: Writer, p: Json): void {
  if (typeof p['$ref'] === 'string') { w.message(2, () => w.string(1, p['$ref'])); return; }
  if (p['in'] === 'body') {
    w.message(1, () => w.message(1, () => {
      w.string(1, p['description']).string(2, p['name']).string(3, p['in']).bool(4, p['required']);
      if (isObject(p['schema'])) w.message(5, () => schema(w, p['schema'] as Json));
      extensions(w, 6, p);
    }));
    return;
  }
  // QueryParameterSubSchema (3) and PathParameterSubSchema (4) of NonBodyParameter: the path one
  // has no allow_empty_value, so its later fields sit one number lower.
  const path = p['in'] === 'path';
  const o = path ? -1 : 0;
  w.message(1, () => w.message(2, () => w.message(path ? 4 : 3, () => {
    w.bool(1, p['required']).string(2, p['in']).string(3, p['description']).string(4, p['name']);
    if (!path) w.bool(5, p['allowEmptyValue']);
    w.string(6 + o, p['type']).string(7 + o, p['format']).string(9 + o, p['collectionFormat']);
    any(w, 10 + o, p['default']);
    w.bool(20 + o, p['uniqueItems']);
    each(p['enum'], (e) => any(w, 21 + o, e));
    extensions(w, 23 + o, p);
  })));
}

function operation(w: Writer, op: Json): void {
  w.strings(1, op['tags']).string(2, op['summary']).string(3, op['description']).string(5, op['operationId'])
    .strings(6, op['produces']).strings(7, op['consumes']);
  each<Json>(op['parameters'], (p) => w.message(8, () => parameter(w, p)));
  // Responses{response_code = 1: NamedResponseValue{value: ResponseValue{response = 1: Response}}}.
  w.message(9, () => {
    for (const [code, r] of Object.entries((op['responses'] ?? {}) as Record<string, Json>)) {
      named(w, 1, code, () => w.message(1, () => {
        w.string(1, r['description']);
        if (isObject(r['schema'])) w.message(2, () => w.message(1, () => schema(w, r['schema'] as Json)));
        extensions(w, 5, r);
      }));
    }
  });
  w.strings(10, op['schemes']).bool(11, op['deprecated']);
  extensions(w, 13, op);
}

const PATH_ITEM_FIELDS = { get: 2, put: 3, post: 4, delete: 5, options: 6, head: 7, patch: 8 } as const;

function pathItem(w: Writer, item: Json): void {
  w.string(1, item['$ref']);
  for (const [m, no] of Object.entries(PATH_ITEM_FIELDS)) if (isObject(item[m])) w.message(no, () => operation(w, item[m] as Json));
  each<Json>(item['parameters'], (p) => w.message(9, () => parameter(w, p)));
  extensions(w, 10, item);
}

/** SecurityDefinitionsItem: basic = 1, apiKey = 2 (the only kinds a Kubernetes server publishes). */
function securityDefinition(w: Writer, d: Json): void {
  if (d['type'] === 'basic') { w.message(1, () => { w.string(1, d['type']).string(2, d['description']); extensions(w, 3, d); }); return; }
  w.message(2, () => { w.string(1, d['type']).string(2, d['name']).string(3, d['in']).string(4, d['description']); extensions(w, 5, d); });
}

/** proto.Marshal(openapi_v2.ParseDocument(json.Marshal(doc))). */
export function encodeOpenApiV2(doc: Json): Buffer {
  const w = new Writer();
  const info = (doc['info'] ?? {}) as Json;
  const paths = (doc['paths'] ?? {}) as Record<string, Json>;
  w.string(1, doc['swagger']);
  w.message(2, () => { w.string(1, info['title']).string(2, info['version']).string(3, info['description']); extensions(w, 7, info); });
  w.string(3, doc['host']).string(4, doc['basePath']).strings(5, doc['schemes']).strings(6, doc['consumes']).strings(7, doc['produces']);
  // Paths{vendor_extension = 1, path = 2: NamedPathItem}.
  w.message(8, () => {
    extensions(w, 1, paths);
    for (const [p, item] of Object.entries(paths)) if (p.startsWith('/')) named(w, 2, p, () => pathItem(w, item));
  });
  const definitions = doc['definitions'];
  if (isObject(definitions)) w.message(9, () => { for (const [n, s] of Object.entries(definitions)) named(w, 1, n, () => schema(w, s as Json)); });
  // SecurityRequirement{additional_properties = 1: NamedStringArray{value: StringArray{value = 1}}}.
  each<Record<string, string[]>>(doc['security'], (req) => w.message(12, () => {
    for (const [n, scopes] of Object.entries(req)) named(w, 1, n, () => w.strings(1, scopes));
  }));
  const security = doc['securityDefinitions'];
  if (isObject(security)) w.message(13, () => { for (const [n, d] of Object.entries(security)) named(w, 1, n, () => securityDefinition(w, d as Json)); });
  extensions(w, 16, doc);
  return w.finish();
}
