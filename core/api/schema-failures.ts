// Where a body fails its schema, found in document order without ajv's allErrors: allErrors keeps
// an error object for every failure, so a 3 MiB body of a million wrong-typed list entries held
// ~500 MB before its 400. Here each subtree is first asked, fail-fast, whether it fails at all;
// only a failing subtree is entered, and a node's own keywords (its children's schemas replaced by
// `{}`) are checked with allErrors, so its first error is the one allErrors lists first at that
// path. A pre-order walk, keys in Object.keys order, meets failures in exactly the document order
// go-decode-order compares by, so the first met is the first, and memory is the depth of the walk.
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { JsonSchema } from '../registry/resource.js';
import { hasCustomUnmarshaler } from './go-decode-order.js';

export interface SchemaFailure { err: ErrorObject; segments: string[]; aborts: boolean }

type Compile = (schema: JsonSchema, allErrors: boolean) => ValidateFunction;

/** A schema's own keywords: what ajv applies to its children becomes the always-true `{}`. */
function ownKeywords(schema: JsonSchema): JsonSchema {
  const out: Record<string, unknown> = { ...schema };
  if (schema.properties) out['properties'] = Object.fromEntries(Object.keys(schema.properties).map((k) => [k, {}]));
  if (schema.items) out['items'] = {};
  if (typeof schema.additionalProperties === 'object') out['additionalProperties'] = {};
  return out as JsonSchema;
}

/** The schema ajv applies to `value`'s `key`, if it applies one (as its properties/items/additionalProperties keywords do). */
function childSchema(schema: JsonSchema, value: object, key: string): JsonSchema | undefined {
  if (Array.isArray(value)) return schema.items;
  if (schema.properties && Object.hasOwn(schema.properties, key)) return schema.properties[key];
  return typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
}

export class SchemaFailureFinder {
  readonly #compile: Compile;
  readonly #whole = new WeakMap<JsonSchema, ValidateFunction>();
  readonly #own = new WeakMap<JsonSchema, ValidateFunction>();
  readonly #mayAbort = new WeakMap<JsonSchema, boolean>();
  constructor(compile: Compile) { this.#compile = compile; }

  /** Go's candidates: the first failure, and the first whose custom unmarshaler aborts decoding (either may be undefined). */
  firstFailures(value: unknown, schema: JsonSchema): { first: SchemaFailure | undefined; firstAborting: SchemaFailure | undefined } {
    let first: SchemaFailure | undefined;
    let firstAborting: SchemaFailure | undefined;
    // Once the first is known, only subtrees that may abort are worth entering.
    for (const f of this.#walk(value, schema, [], () => first !== undefined)) {
      first ??= f;
      if (f.aborts) { firstAborting = f; break; }
    }
    return { first, firstAborting };
  }

  *#walk(value: unknown, schema: JsonSchema, segments: string[], abortingOnly: () => boolean): Generator<SchemaFailure> {
    if (abortingOnly() && !this.#mayAbortUnder(schema)) return;
    if (this.#validator(this.#whole, schema, false, schema)(value)) return;
    const own = this.#validator(this.#own, schema, true, ownKeywords(schema));
    if (!own(value)) yield { err: own.errors![0]!, segments: [...segments], aborts: hasCustomUnmarshaler(schema) };
    // A custom unmarshaler's value is checked whole (schema-types strips its schema to one keyword).
    if (hasCustomUnmarshaler(schema) || !value || typeof value !== 'object') return;
    const keyed = value as Record<string, unknown>;
    const count = Array.isArray(value) ? (value as unknown[]).length : -1;
    const keys = count >= 0 ? undefined : Object.keys(value);
    for (let i = 0; i < (keys ? keys.length : count); i++) {
      const key = keys ? keys[i]! : String(i);
      const child = childSchema(schema, value, key);
      if (child) yield* this.#walk(keyed[key], child, [...segments, key], abortingOnly);
    }
  }

  #validator(cache: WeakMap<JsonSchema, ValidateFunction>, key: JsonSchema, allErrors: boolean, schema: JsonSchema): ValidateFunction {
    let v = cache.get(key);
    if (!v) cache.set(key, (v = this.#compile(schema, allErrors)));
    return v;
  }

  #mayAbortUnder(schema: JsonSchema): boolean {
    let known = this.#mayAbort.get(schema);
    if (known === undefined) {
      this.#mayAbort.set(schema, false); // a schema that reaches itself adds nothing new
      const below = [...Object.values(schema.properties ?? {}), ...(schema.items ? [schema.items] : []),
        ...(typeof schema.additionalProperties === 'object' ? [schema.additionalProperties] : [])];
      known = hasCustomUnmarshaler(schema) || below.some((s) => this.#mayAbortUnder(s));
      this.#mayAbort.set(schema, known);
    }
    return known;
  }
}
