// The control plane's --feature-gates as component-base's ComponentGlobalsRegistry reads it
// (1.31+): `component:key=value` pairs, a pair without a component is "kube"'s, and each
// component's pairs are handed to its feature gate's Set. plat registers one component, "kube".
// The texts are upstream's (registry.go Set, feature_gate.go Set / SetFromMap).
import { aggregate } from '../aggregate.js';
import { parseBool } from '../flags/parse-value.js';
import type { GateEvaluation, GateTable } from './gate-table.js';

export const DEFAULT_COMPONENT = 'kube';

/**
 * The flag's pairs (`kube:Name` or `Name` to its text value, the repeated flags and the config
 * file already merged, later ones winning as upstream's joined Set) evaluated against `table`:
 * the evaluation, or the one error upstream's Set returns.
 */
export function evaluateComponentGates(pairs: Readonly<Record<string, string>>, table: GateTable): GateEvaluation | { error: string } {
  const byComponent = new Map<string, Array<[string, string]>>();
  for (const [key, value] of Object.entries(pairs)) {
    const colon = key.indexOf(':');
    const [component, name] = colon === -1 ? ['', key.trim()] : [key.slice(0, colon).trim(), key.slice(colon + 1).trim()];
    byComponent.set(component, [...(byComponent.get(component) ?? []), [name, value.trim()]]);
  }
  if (byComponent.has('') && byComponent.has(DEFAULT_COMPONENT)) {
    return { error: 'set kube feature gates with default empty prefix or kube: prefix consistently, do not mix use' };
  }
  const other = [...byComponent.keys()].filter((c) => c !== '' && c !== DEFAULT_COMPONENT).sort();
  if (other.length) return { error: `component not registered: ${other[0]}` };
  // No prototype: a gate named `__proto__` must reach the table as a name (and be refused), not
  // vanish into an assignment to the map's prototype.
  const map: Record<string, boolean> = Object.create(null) as Record<string, boolean>;
  for (const [name, value] of byComponent.get('') ?? byComponent.get(DEFAULT_COMPONENT) ?? []) {
    try {
      map[name] = parseBool(value);
    } catch (e) {
      return { error: `invalid value of ${name}=${value}, err: ${(e as Error).message}` };
    }
  }
  const evaluation = table.evaluate(map);
  return evaluation.errors.length ? { error: aggregate(evaluation.errors) } : evaluation;
}
