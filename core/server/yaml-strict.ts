// What sigs.k8s.io/yaml.UnmarshalStrict finds in a YAML (or JSON) document decoded into a map:
// go-yaml v2's strict mode refuses a key already set in the same map, one error per repeat, in the
// order the decoder meets them (a value's own repeats before its key's). Its line is the value's.
import type { Node } from 'yaml';
import { yaml } from '../yaml-module.js';
import { GO_YAML } from '../api/go-yaml.js';
import { goQuote } from '../api/field-errors.js';
import { parsedOffThread } from './yaml-off-thread.js';

/** A request body's found once already, where yaml-off-thread.ts parsed it. */
export function yamlDuplicateKeys(body: Buffer | string): string[] {
  const done = typeof body === 'string' ? undefined : parsedOffThread(body);
  if (done && done.syntaxError === undefined) return done.duplicates;
  const text = typeof body === 'string' ? body : body.toString('utf8');
  const lines = new (yaml().LineCounter)();
  const doc = yaml().parseDocument(text, { ...GO_YAML, uniqueKeys: false, lineCounter: lines });
  const out: string[] = [];
  const lineOf = (n: unknown, fallback: unknown): number => {
    const at = (n as Node | null)?.range?.[0] ?? (fallback as Node | null)?.range?.[0] ?? 0;
    return lines.linePos(at).line;
  };
  const walk = (n: unknown): void => {
    if (yaml().isSeq(n)) { n.items.forEach(walk); return; }
    if (!yaml().isMap(n)) return;
    const seen = new Set<string>();
    for (const pair of n.items) {
      if (!yaml().isPair(pair)) continue;
      const key: unknown = yaml().isScalar(pair.key) ? pair.key.value : pair.key;
      if (key === '<<') continue;
      walk(pair.value);
      const id = `${typeof key}:${String(key)}`;
      if (seen.has(id)) out.push(`line ${lineOf(pair.value, pair.key)}: key ${goValue(key)} already set in map`);
      seen.add(id);
    }
  };
  walk(doc.contents);
  return out;
}

/** Go's %#v of a decoded YAML key. */
function goValue(key: unknown): string {
  if (typeof key === 'string') return goQuote(key);
  if (key === null || key === undefined) return '<nil>';
  return String(key);
}

/** go-yaml's strict error, as YAMLToJSONStrict returns it. */
export const yamlUnmarshalErrors = (errs: readonly string[]): string => `yaml: unmarshal errors:\n  ${errs.join('\n  ')}`;

/** UnmarshalStrict's error text, as `error converting YAML to JSON: ...` wraps it. */
export const yamlStrictError = (errs: readonly string[]): string => `error converting YAML to JSON: ${yamlUnmarshalErrors(errs)}`;
