// What structured-merge-diff's typed conversion (AsTyped's validatingObjectWalker) refuses in an
// apply configuration, whatever fieldValidation says: a field its struct does not declare (the
// walk of that map stops there, as Go's does at the first such key it meets), and a granular
// list's item that has no path element (a map list's item without its key, a set's null or map
// item; the rest of that list goes unchecked) or repeats one, and a value of another type than the
// schema's (validateScalar, mapValue, listValue: Go's %v and %#v of the value in the message).
// Errors are kept in document order; Go's map iteration gives them in any order.
import { fieldElement, indexElement, printElement, type PathElement } from './field-set.js';
import { fieldShape, isPlainObject, resolve, type Shape } from './schema-shape.js';
import { itemElement } from './to-field-set.js';

/** ValidationErrors.Error(): one error alone, or `errors:` and each on its own indented line. */
export function typedErrorText(errs: readonly string[]): string {
  return errs.length === 1 ? errs[0]! : ['errors:', ...errs.map((e) => `  ${e}`)].join('\n');
}

/** Each error as ValidationError.Error() prints it (`.spec.foo: field not declared in schema`). */
export function typedErrors(v: unknown, shape: Shape): string[] {
  const out: string[] = [];
  walk(v, shape, '', out);
  return out;
}

const at = (path: string, message: string): string => (path ? `${path}: ${message}` : message);

function walk(v: unknown, shape: Shape, path: string, out: string[]): void {
  const s = resolve(shape, v);
  if (v === null || v === undefined) return;
  if (s.t === 'scalar') {
    const wrong = s.kind === 'string' ? typeof v !== 'string' : s.kind === 'numeric' ? typeof v !== 'number' : s.kind === 'boolean' && typeof v !== 'boolean';
    if (!wrong) return;
    if (s.kind === 'string') out.push(at(path, `expected string, got &value.valueUnstructured{Value:${goSharpV(v)}}`));
    else if (s.kind === 'numeric') out.push(at(path, `expected numeric (int or float), got ${goTypeName(v)}`));
    else out.push(at(path, `expected boolean, got &{${goV(v)}}`));
    return;
  }
  if (s.t === 'map') {
    if (!isPlainObject(v)) { out.push(at(path, `expected map, got &{${goV(v)}}`)); return; }
    for (const key of Object.keys(v)) {
      const child = path + printElement(fieldElement(key));
      const { shape: fs, declared } = fieldShape(s, key);
      if (!declared && !s.elem) { out.push(at(child, 'field not declared in schema')); return; }
      walk(v[key], fs, child, out);
    }
    return;
  }
  if (s.t !== 'list') return;
  if (!Array.isArray(v)) { out.push(at(path, `expected list, got &{${goV(v)}}`)); return; }
  const seen = new Set<PathElement>();
  for (let i = 0; i < v.length; i++) {
    let e: PathElement;
    if (s.rel === 'atomic') e = indexElement(i);
    else {
      const problem = itemProblem(s, v[i]);
      if (problem) { out.push(at(path, `element ${i}: ${problem}`)); return; }
      e = itemElement(s, v[i], i);
      if (seen.has(e)) out.push(at(path, `duplicate entries for key ${printElement(e)}`));
      seen.add(e);
    }
    walk(v[i], s.elem, path + printElement(e), out);
  }
}

/** listItemToPathElement's refusals, in its words (which differ from ToFieldSet's). */
function itemProblem(list: Shape & { t: 'list' }, item: unknown): string | undefined {
  if (list.rel === 'map' && list.keys.length > 0) {
    if (item === null) return 'associative list with keys may not have a null element';
    if (!isPlainObject(item)) return 'associative list with keys may not have non-map elements';
    const missing = list.keys.find((k) => !(k in item));
    return missing === undefined ? undefined : `associative list with keys has an element that omits key field ${JSON.stringify(missing)} (and doesn't have default value)`;
  }
  if (isPlainObject(item)) return 'associative list without keys has an element that\'s a map type';
  if (Array.isArray(item)) return 'not supported: associative list with lists as elements';
  return item === null ? 'associative list without keys has an element that\'s an explicit null' : undefined;
}

/** Go's %v of a decoded JSON value: `x`, `5`, `map[a:b]`, `[a 1]`. */
function goV(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goV).join(' ')}]`;
  if (isPlainObject(v)) return `map[${Object.keys(v).sort().map((k) => `${k}:${goV(v[k])}`).join(' ')}]`;
  return String(v);
}

/** Go's %#v of a decoded JSON value: `"x"`, `5`, `map[string]interface {}{"a":"b"}`, `[]interface {}{"a", 1}`. */
function goSharpV(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSharpV).join(', ')}}`;
  if (isPlainObject(v)) return `map[string]interface {}{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${goSharpV(v[k])}`).join(', ')}}`;
  return String(v);
}

/** Go's %T of a decoded JSON value. */
function goTypeName(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return '[]interface {}';
  return isPlainObject(v) ? 'map[string]interface {}' : 'float64';
}
