// The node agent's feature gates as component-base's featuregate evaluates a --feature-gates /
// `featureGates` map: unknown names and locked gates set against their default are errors (an
// unknown name stops at once, as upstream), AllAlpha / AllBeta switch every gate of that stage not
// named explicitly, an enabled gate whose dependencies are off is an error, and setting a GA or
// deprecated gate is worth a warning. Subsystems ask `enabled(name)`.
import { FEATURE_GATE_DEPENDENCIES, FEATURE_GATES, type GateSpec, type Stage } from './feature-gate-specs.js';

const SPECIAL: Readonly<Record<string, { spec: GateSpec; stage: Stage }>> = {
  AllAlpha: { spec: { default: false, stage: 'ALPHA' }, stage: 'ALPHA' },
  AllBeta: { spec: { default: false, stage: 'BETA' }, stage: 'BETA' },
};

export interface GateEvaluation {
  readonly gates: FeatureGates;
  /** Empty when the map is acceptable. */
  readonly errors: readonly string[];
  readonly warnings: readonly string[];
}

export class FeatureGates {
  private constructor(private readonly set: ReadonlyMap<string, boolean>) {}

  /** The gates with every default (no map). */
  static defaults(): FeatureGates {
    return new FeatureGates(new Map());
  }

  /** Evaluates `map` (`featureGates` after the file, drop-ins and --feature-gates). */
  static evaluate(map: Readonly<Record<string, boolean>> | undefined): GateEvaluation {
    const enabled = new Map<string, boolean>();
    const errors: string[] = [];
    const warnings: string[] = [];
    for (const name of Object.keys(map ?? {}).sort()) {
      const value = map![name]!;
      const special = SPECIAL[name];
      const spec = special?.spec ?? FEATURE_GATES[name];
      if (spec === undefined) return { gates: new FeatureGates(new Map()), errors: [`unrecognized feature gate: ${name}`], warnings };
      if (spec.locked && spec.default !== value) {
        errors.push(`cannot set feature gate ${name} to ${value}, feature is locked to ${spec.default}`);
        continue;
      }
      if (special) {
        for (const [gate, s] of Object.entries(FEATURE_GATES)) {
          if (s.stage === special.stage && map![gate] === undefined) enabled.set(gate, value);
        }
        continue;
      }
      enabled.set(name, value);
      if (spec.stage === 'DEPRECATED') warnings.push(`Setting deprecated feature gate ${name}=${value}. It will be removed in a future release.`);
      else if (spec.stage === 'GA') warnings.push(`Setting GA feature gate ${name}=${value}. It will be removed in a future release.`);
    }
    const gates = new FeatureGates(enabled);
    if (errors.length === 0) {
      for (const feature of Object.keys(FEATURE_GATE_DEPENDENCIES).sort()) {
        if (!gates.enabled(feature)) continue;
        const off = FEATURE_GATE_DEPENDENCIES[feature]!.filter((d) => !gates.enabled(d));
        if (off.length) errors.push(`${feature} is enabled, but depends on features that are disabled: [${off.join(' ')}]`);
      }
    }
    return { gates, errors, warnings };
  }

  /** True when `name` is on (its default unless set); false for a name plat does not know. */
  enabled(name: string): boolean {
    return this.set.get(name) ?? FEATURE_GATES[name]?.default ?? false;
  }

  /** The names of every gate plat knows, sorted (what --help lists). */
  static known(): string[] {
    return Object.keys(FEATURE_GATES).sort();
  }
}
