// Type checking of decoded objects against a resource's JSON schema with ajv. `required` is left
// to the strategies (their 422 messages name the field as Kubernetes does); what ajv reports here
// is what Go's JSON decoder would refuse, so it becomes a 400 BadRequest.
import AjvModule, { type ErrorObject, type ValidateFunction } from 'ajv';
import type { JsonSchema } from '../registry/resource.js';

const Ajv = AjvModule.default ?? AjvModule;

/** Go's base64.StdEncoding strictness: returns the index of the first illegal byte, or -1. */
export function base64ErrorIndex(s: string): number {
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    const alpha = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47;
    if (alpha) continue;
    if (c === 61) {
      // padding: only at the end, at most two, and total length a multiple of 4
      const pad = s.slice(i);
      if (/^={1,2}$/.test(pad) && n % 4 === 0) return -1;
      return i;
    }
    if (c === 13 || c === 10) continue; // Go's decoder skips newlines
    return i;
  }
  const clean = s.replace(/[\r\n]/g, '');
  return clean.length % 4 === 0 ? -1 : clean.length - (clean.length % 4);
}

function stripRequired(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'required' || k === 'description' || k.startsWith('x-')) continue;
    if (k === 'properties' && v) {
      out.properties = Object.fromEntries(Object.entries(v as Record<string, JsonSchema>).map(([p, s]) => [p, stripRequired(s)]));
    } else if ((k === 'items' || k === 'additionalProperties') && typeof v === 'object' && v) {
      (out as Record<string, unknown>)[k] = stripRequired(v as JsonSchema);
    } else (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

const GO_TYPES: Record<string, string> = { string: 'string', integer: 'int64', number: 'float64', boolean: 'bool', object: 'map[string]interface {}', array: '[]interface {}' };

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v === 'object' ? 'object' : typeof v;
}

export class SchemaTypeChecker {
  readonly #validate: ValidateFunction;
  constructor(schema: JsonSchema) {
    const ajv = new Ajv({ allErrors: false, strict: false, validateFormats: true });
    ajv.addFormat('byte', { type: 'string', validate: (s: string) => base64ErrorIndex(s) < 0 });
    ajv.addFormat('date-time', { type: 'string', validate: (s: string) => !Number.isNaN(Date.parse(s)) && /^\d{4}-\d{2}-\d{2}T/.test(s) });
    ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -2147483648 && n <= 2147483647 });
    ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
    this.#validate = ajv.compile(stripRequired(schema));
  }

  /** undefined when the object decodes; otherwise Go's decoder-style reason. */
  check(obj: unknown): string | undefined {
    if (this.#validate(obj)) return undefined;
    const err = this.#validate.errors?.[0] as ErrorObject | undefined;
    if (!err) return 'invalid object';
    const path = err.instancePath.replace(/^\//, '').split('/').filter(Boolean)
      .map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`)).join('').replace(/^\./, '');
    const value = path.split(/\.|\[/).reduce<unknown>((acc, key) => {
      const k = key.replace(/\]$/, '');
      return acc && typeof acc === 'object' ? (acc as Record<string, unknown>)[k] : undefined;
    }, obj);
    if (err.keyword === 'format' && err.params['format'] === 'byte' && typeof value === 'string') {
      return `illegal base64 data at input byte ${base64ErrorIndex(value)}`;
    }
    if (err.keyword === 'format' && err.params['format'] === 'date-time') {
      return `parsing time ${JSON.stringify(value)} as "2006-01-02T15:04:05Z07:00": cannot parse ${JSON.stringify(value)} as "2006"`;
    }
    if (err.keyword === 'type' || err.keyword === 'format') {
      const want = String(err.params['type'] ?? err.params['format'] ?? 'value');
      const goType = GO_TYPES[want] ?? want;
      const got = jsonType(value) === 'object' ? 'object' : jsonType(value);
      return `json: cannot unmarshal ${got} into Go struct field ${path} of type ${goType}`;
    }
    if (err.keyword === 'enum') return `${path}: unsupported value ${JSON.stringify(value)}`;
    return `${path}: ${err.message ?? 'invalid'}`;
  }
}
