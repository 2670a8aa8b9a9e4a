// Type checking of decoded objects against a resource's JSON schema with ajv. `required` is left
// to the strategies (their 422 messages name the field as Kubernetes does); what ajv reports here
// is what Go's JSON decoder would refuse, so it becomes a 400 BadRequest.
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { JsonSchema } from '../registry/resource.js';
import { goReportedFailure } from './go-decode-order.js';
import { SchemaFailureFinder } from './schema-failures.js';
import { baseType, GO_TYPE, goStructName, goTypeOf, unmarshalValueWord } from './go-types.js';
import type { NumberLiteral } from './schema-fields.js';
import { QUANTITY_GO_TYPE, quantityFromJson } from './quantity.js';
import { goTimeError, type GoTimeLayout } from './go-time.js';
import { timeLayoutOf } from './go-time-fields.js';
import { base64ErrorIndex } from './base64-error.js';
import { objectMetaSchema } from './object-meta-schema.js';
import { ajvModule } from '../ajv-module.js';

/** Quantity.UnmarshalJSON's error for `value` (any JSON type may be a quantity), or undefined. */
function quantityJsonError(value: unknown): string | undefined {
  try {
    quantityFromJson(value);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/** Where compiled schemas find the ObjectMeta schema, compiled once per ajv instance. */
const OBJECT_META_REF = 'ObjectMeta';

function stripRequired(schema: JsonSchema, metaAsRef = true): JsonSchema {
  // Every kind has the same metadata: as a $ref, ajv compiles it once instead of into every kind's.
  if (metaAsRef && schema === objectMetaSchema) return { $ref: OBJECT_META_REF } as JsonSchema;
  // Decoded by its own UnmarshalJSON from any JSON value, not by its schema type.
  if (schema[GO_TYPE] === QUANTITY_GO_TYPE) return { goQuantity: true } as JsonSchema;
  // A string, then time.Parse in the field's layout (metav1.Time or MicroTime).
  const layout = timeLayoutOf(schema);
  if (layout) return { type: schema.type, ...(schema.nullable ? { nullable: true } : {}), goTime: layout } as JsonSchema;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'required' || k === 'description' || k.startsWith('x-')) continue;
    if (k === 'properties' && v) {
      out.properties = Object.fromEntries(Object.entries(v as Record<string, JsonSchema>).map(([p, s]) => [p, stripRequired(s, metaAsRef)]));
    } else if ((k === 'items' || k === 'additionalProperties') && typeof v === 'object' && v) {
      (out as Record<string, unknown>)[k] = stripRequired(v as JsonSchema, metaAsRef);
    } else (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

/**
 * Where the decoder was when a value failed: encoding/json names the innermost struct and the
 * JSON names of the struct fields it went through; slice indices and map keys are not part of it.
 */
interface GoField {
  struct: string; fields: string[]; schema: JsonSchema;
  /** Whether the schema reaches the whole path (else `schema` is where it stopped). */
  reached: boolean;
}

function goFieldAt(root: JsonSchema, segments: readonly string[]): GoField {
  const at: GoField = { struct: '', fields: [], schema: root, reached: false };
  for (const seg of segments) {
    const node = at.schema;
    if (node.properties && Object.hasOwn(node.properties, seg)) {
      at.struct = goStructName(node);
      at.fields.push(seg);
      at.schema = node.properties[seg]!;
    } else if (node.items) at.schema = node.items;
    else if (typeof node.additionalProperties === 'object') at.schema = node.additionalProperties;
    else return at;
  }
  at.reached = true;
  return at;
}

function unmarshalTypeError(root: JsonSchema, segments: string[], value: unknown, literal: string | undefined): string {
  const at = goFieldAt(root, segments);
  const into = at.fields.length ? `Go struct field ${at.struct}.${at.fields.join('.')}` : 'Go value';
  return `json: cannot unmarshal ${unmarshalValueWord(value, goTypeOf(at.schema), literal)} into ${into} of type ${goTypeOf(at.schema)}`;
}

/** A fraction or an exponent: strconv.ParseInt, which Go's decoder uses for an integer field, refuses it. */
const notAnInteger = (literal: string): boolean => /[.eE]/.test(literal);

function newAjv(allErrors: boolean): Ajv {
  // ajv (~60 modules) is loaded here, on the first compile: a command that checks no object (--help,
  // a flag error) does not load it.
  const { Ajv } = ajvModule();
  // Code generation is most of a compile; ajv's optimizing pass over the generated code doubles it
  // for validators that run once a request on small objects. inlineRefs off keeps ObjectMeta shared.
  const ajv = new Ajv({ allErrors, strict: false, validateFormats: true, inlineRefs: false, code: { optimize: false } });
  ajv.addFormat('byte', { type: 'string', validate: (s: string) => base64ErrorIndex(s) < 0 });
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -2147483648 && n <= 2147483647 });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
  ajv.addKeyword({ keyword: 'goTime', type: 'string', schemaType: 'string', validate: (layout: GoTimeLayout, value: string) => goTimeError(value, layout) === undefined });
  ajv.addKeyword({ keyword: 'goQuantity', schemaType: 'boolean', validate: (_: boolean, value: unknown) => quantityJsonError(value) === undefined });
  ajv.addSchema(stripRequired(objectMetaSchema, false), OBJECT_META_REF);
  return ajv;
}

// One instance per mode: each instance compiles the draft-07 meta-schema before its first schema
// (about as long as compiling a resource's own), so one per schema doubled every first request's
// cost. The schemas have no $id and no $ref, so they cannot see each other in a shared instance.
const instances = new Map<boolean, Ajv>();

function compile(schema: JsonSchema, allErrors: boolean): ValidateFunction {
  let ajv = instances.get(allErrors);
  if (!ajv) instances.set(allErrors, (ajv = newAjv(allErrors)));
  const stripped = stripRequired(schema);
  try {
    return ajv.compile(stripped);
  } finally {
    // The checker keeps the function; the instance need not keep the schema (tests build many).
    ajv.removeSchema(stripped);
  }
}

/** The value at `segments` (undefined where there is none). A patch's literal may have been overwritten since. */
const valueAt = (obj: unknown, segments: readonly string[]): unknown =>
  segments.reduce<unknown>((acc, k) => (acc && typeof acc === 'object' ? (acc as Record<string, unknown>)[k] : undefined), obj);

function isIntegerAt(root: JsonSchema, segments: readonly string[]): boolean {
  const at = goFieldAt(root, segments);
  return at.reached && baseType(at.schema) === 'integer';
}

export class SchemaTypeChecker {
  readonly #schema: JsonSchema;
  readonly #validate: ValidateFunction;
  /** Finds the failures Go may report; made on the first body that fails. */
  #failures: SchemaFailureFinder | undefined;
  constructor(schema: JsonSchema) {
    this.#schema = schema;
    this.#validate = compile(schema, false);
  }

  /**
   * undefined when the object decodes; otherwise Go's decoder-style reason. `numbers` are the
   * body's number literals JSON.parse reads inexactly (schema-fields' scanJsonText), for the
   * integer fields Go refuses them in and for the number as an error shows it.
   */
  check(obj: unknown, numbers: readonly NumberLiteral[] = []): string | undefined {
    const literalFailures = numbers.filter((n) => notAnInteger(n.literal) && isIntegerAt(this.#schema, n.segments) && valueAt(obj, n.segments) === Number(n.literal))
      .map((n) => ({ err: undefined, segments: n.segments, aborts: false }));
    if (this.#validate(obj) && literalFailures.length === 0) return undefined;
    const { first, firstAborting } = (this.#failures ??= new SchemaFailureFinder(compile)).firstFailures(obj, this.#schema);
    const failures = [...(first ? [first] : []), ...(firstAborting && firstAborting !== first ? [firstAborting] : []), ...literalFailures];
    const chosen = goReportedFailure<{ err: ErrorObject | undefined; segments: string[]; aborts: boolean }>(obj, failures);
    if (!chosen) return 'invalid object';
    const { err, segments } = chosen;
    const value = valueAt(obj, segments);
    const literal = numbers.find((n) => n.segments.length === segments.length && n.segments.every((s, i) => s === segments[i]))?.literal;
    if (!err) return unmarshalTypeError(this.#schema, segments, value, literal);
    const path = segments.map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`)).join('').replace(/^\./, '');
    if (err.keyword === 'format' && err.params['format'] === 'byte' && typeof value === 'string') {
      return `illegal base64 data at input byte ${base64ErrorIndex(value)}`;
    }
    if (err.keyword === 'goTime') {
      const layout = timeLayoutOf(goFieldAt(this.#schema, segments).schema);
      return (layout && goTimeError(String(value), layout)) ?? 'invalid time';
    }
    if (err.keyword === 'goQuantity') return quantityJsonError(value) ?? 'invalid quantity';
    if (err.keyword === 'type' || err.keyword === 'format') return unmarshalTypeError(this.#schema, segments, value, literal);
    if (err.keyword === 'enum') return `${path}: unsupported value ${JSON.stringify(value)}`;
    return `${path}: ${err.message ?? 'invalid'}`;
  }
}
