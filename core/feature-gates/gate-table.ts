// component-base's featuregate evaluation of a --feature-gates / `featureGates` map against one
// component's gate table: unknown names and locked gates set against their default are errors (an
// unknown name stops at once, as upstream), AllAlpha / AllBeta switch every gate of that stage not
// named explicitly, an enabled gate whose dependencies are off is an error, and setting a GA or
// deprecated gate is worth a warning. The node agent's table and the control plane's share it.

export type Stage = 'ALPHA' | 'BETA' | 'GA' | 'DEPRECATED';

export interface GateSpec { readonly default: boolean; readonly stage: Stage; readonly locked?: true }

const SPECIAL: Readonly<Record<string, { spec: GateSpec; stage: Stage }>> = {
  AllAlpha: { spec: { default: false, stage: 'ALPHA' }, stage: 'ALPHA' },
  AllBeta: { spec: { default: false, stage: 'BETA' }, stage: 'BETA' },
};

export interface GateEvaluation {
  readonly gates: FeatureGateSet;
  /** Empty when the map is acceptable. */
  readonly errors: readonly string[];
  readonly warnings: readonly string[];
}

/** The gates in force: what was set, over the table's defaults. Subsystems ask `enabled(name)`. */
export class FeatureGateSet {
  constructor(private readonly table: GateTable, private readonly set: ReadonlyMap<string, boolean>) {}

  /** True when `name` is on (its default unless set); false for a name the table does not know. */
  enabled(name: string): boolean {
    return this.set.get(name) ?? this.table.spec(name)?.default ?? false;
  }

  /** The gates set explicitly (AllAlpha / AllBeta expanded), by name. */
  explicit(): ReadonlyMap<string, boolean> {
    return this.set;
  }
}

export class GateTable {
  constructor(
    private readonly specs: Readonly<Record<string, GateSpec>>,
    private readonly dependencies: Readonly<Record<string, readonly string[]>> = {},
  ) {}

  spec(name: string): GateSpec | undefined {
    return Object.hasOwn(this.specs, name) ? this.specs[name] : undefined;
  }

  /** The gates with every default (no map). */
  defaults(): FeatureGateSet {
    return new FeatureGateSet(this, new Map());
  }

  /** Evaluates `map` (names sorted, so that the errors come in one order; Go's map order is random). */
  evaluate(map: Readonly<Record<string, boolean>> | undefined): GateEvaluation {
    const enabled = new Map<string, boolean>();
    const errors: string[] = [];
    const warnings: string[] = [];
    for (const name of Object.keys(map ?? {}).sort()) {
      const value = map![name]!;
      const special = Object.hasOwn(SPECIAL, name) ? SPECIAL[name] : undefined;
      const spec = special?.spec ?? this.spec(name);
      if (spec === undefined) return { gates: this.defaults(), errors: [`unrecognized feature gate: ${name}`], warnings };
      if (spec.locked && spec.default !== value) {
        errors.push(`cannot set feature gate ${name} to ${value}, feature is locked to ${spec.default}`);
        continue;
      }
      if (special) {
        for (const [gate, s] of Object.entries(this.specs)) {
          if (s.stage === special.stage && map![gate] === undefined) enabled.set(gate, value);
        }
        continue;
      }
      enabled.set(name, value);
      if (spec.stage === 'DEPRECATED') warnings.push(`Setting deprecated feature gate ${name}=${value}. It will be removed in a future release.`);
      else if (spec.stage === 'GA') warnings.push(`Setting GA feature gate ${name}=${value}. It will be removed in a future release.`);
    }
    const gates = new FeatureGateSet(this, enabled);
    if (errors.length === 0) {
      for (const feature of Object.keys(this.dependencies).sort()) {
        if (!gates.enabled(feature)) continue;
        const off = this.dependencies[feature]!.filter((d) => !gates.enabled(d));
        if (off.length) errors.push(`${feature} is enabled, but depends on features that are disabled: [${off.join(' ')}]`);
      }
    }
    return { gates, errors, warnings };
  }

  /** The names of every gate of the table, sorted (what --help lists). */
  known(): string[] {
    return Object.keys(this.specs).sort();
  }

  /** upstream's KnownFeatures(): `Name=true|false (STAGE - default=...)`, AllAlpha and AllBeta included, GA and deprecated gates left out. */
  helpLines(): string[] {
    const lines: string[] = [];
    const all: Array<[string, GateSpec]> = [...Object.entries(SPECIAL).map(([n, s]) => [n, s.spec] as [string, GateSpec]), ...Object.entries(this.specs)];
    for (const [name, spec] of all) {
      if (spec.stage === 'GA' || spec.stage === 'DEPRECATED') continue;
      lines.push(`${name}=true|false (${spec.stage} - default=${spec.default})`);
    }
    return lines.sort();
  }
}
