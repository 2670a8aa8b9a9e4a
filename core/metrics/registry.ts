// A registry of metrics as component-base's KubeRegistry keeps them, one per component instance
// (tests run several roles in one process; nothing here is global). Counters, gauges and
// histograms with label names; a family may instead be read at scrape time (`collect`). Children
// are plain numbers updated in place: instrumentation costs a Map lookup and an addition, and
// nothing happens at all until somebody scrapes. The settings (core/metrics/settings.ts) apply
// as upstream applies them: a disabled or hidden family is not exposed, a label value outside its
// allow-list is recorded as `unexpected` when the child is looked up.
import { exposeText, type ExposedFamily, type HistogramSample, type LabelPairs, type ScalarSample, type SummarySample } from './exposition.js';
import { DEFAULT_METRICS_SETTINGS, type MetricsSettings } from './settings.js';

export type StabilityLevel = 'INTERNAL' | 'ALPHA' | 'BETA' | 'STABLE';

export interface MetricOptions {
  /** The fully qualified name (namespace_subsystem_name). */
  readonly name: string;
  readonly help: string;
  /** Default ALPHA, as component-base's setDefaults. */
  readonly stabilityLevel?: StabilityLevel;
  readonly labelNames?: readonly string[];
  /** `major.minor[.patch]`: deprecated from then, hidden from the next minor on (unless shown). */
  readonly deprecatedVersion?: string;
  /**
   * Registered as upstream's RawMustRegister (client_golang's process collector): outside the
   * stability framework, so no `[LEVEL]` in its help and not subject to the metrics flags.
   */
  readonly raw?: boolean;
}

export interface HistogramOptions extends MetricOptions {
  /** Upper bounds, increasing; +Inf is implied. */
  readonly buckets: readonly number[];
}

/** A value read at scrape time: the label values in labelNames' order, and the value. */
export type CollectedSample = readonly [labelValues: readonly string[], value: number];

export class CounterChild {
  value = 0;
  inc(by = 1): void { this.value += by; }
}

export class GaugeChild {
  value = 0;
  set(v: number): void { this.value = v; }
  inc(by = 1): void { this.value += by; }
  dec(by = 1): void { this.value -= by; }
}

export class HistogramChild {
  readonly counts: number[];
  sum = 0;
  count = 0;
  constructor(readonly upperBounds: readonly number[]) { this.counts = upperBounds.map(() => 0); }
  observe(v: number): void {
    this.sum += v;
    this.count++;
    const i = this.upperBounds.findIndex((upper) => v <= upper);
    if (i !== -1) this.counts[i]!++;
  }
}

/**
 * A summary as component-base's NewSummaryVec makes one without Objectives: client_golang then
 * keeps no quantiles (MaxAge only ages those), so only the sum and count are exposed.
 */
export class SummaryChild {
  sum = 0;
  count = 0;
  observe(v: number): void { this.sum += v; this.count++; }
}

type Kind = 'counter' | 'gauge' | 'histogram' | 'summary';

/** One family's children by label values; `labels(...)` finds or makes one. */
export class MetricVec<C> {
  readonly #children = new Map<string, { values: readonly string[]; child: C }>();
  constructor(
    readonly options: MetricOptions,
    private readonly make: () => C,
    private readonly constrain: (name: string, labelNames: readonly string[], values: string[]) => void,
  ) {}

  /** The child for these label values (in labelNames' order); callers on a hot path keep it. */
  labels(...values: string[]): C {
    const names = this.options.labelNames ?? [];
    if (values.length !== names.length) throw new RangeError(`${this.options.name}: ${names.length} label values expected, got ${values.length}`);
    if (!this.options.raw) this.constrain(this.options.name, names, values);
    const key = values.join('\u0000');
    let entry = this.#children.get(key);
    if (!entry) this.#children.set(key, (entry = { values: [...values], child: this.make() }));
    return entry.child;
  }

  entries(): IterableIterator<{ values: readonly string[]; child: C }> { return this.#children.values(); }
}

interface Family {
  readonly kind: Kind;
  readonly options: MetricOptions;
  readonly vec?: MetricVec<CounterChild | GaugeChild | HistogramChild | SummaryChild>;
  readonly collect?: () => Iterable<CollectedSample>;
}

const parseMinor = (v: string): [number, number] => {
  const [major = 0, minor = 0] = v.replace(/^v/, '').split('.').map(Number);
  return [major, minor];
};

export class MetricsRegistry {
  readonly #families = new Map<string, Family>();
  #settings: MetricsSettings = DEFAULT_METRICS_SETTINGS;
  readonly #current: [number, number];
  readonly #unexpected: CounterChild;
  readonly #hidden: CounterChild;
  readonly #disabledCount: CounterChild;
  readonly #registered: MetricVec<CounterChild>;

  /** `currentVersion`: the component's `major.minor`, against which deprecated metrics are hidden. */
  constructor(currentVersion: string) {
    this.#current = parseMinor(currentVersion);
    // component-base's meta metrics (RegisterMetaMetrics), registered with every KubeRegistry.
    this.#registered = this.counter({ name: 'registered_metrics_total', help: 'The count of registered metrics broken by stability level and deprecation version.', stabilityLevel: 'BETA', labelNames: ['stability_level', 'deprecated_version'] });
    // It counts itself too, as upstream's lazyMetric.Create does for every metric registered.
    this.#registered.labels('BETA', '').inc();
    this.#disabledCount = this.counter({ name: 'disabled_metrics_total', help: 'The count of disabled metrics.', stabilityLevel: 'BETA' }).labels();
    this.#hidden = this.counter({ name: 'hidden_metrics_total', help: 'The count of hidden metrics.', stabilityLevel: 'BETA' }).labels();
    this.#unexpected = this.counter({ name: 'cardinality_enforcement_unexpected_categorizations_total', help: 'The count of unexpected categorizations during cardinality enforcement.' }).labels();
  }

  /** The metrics flags' meaning; set once at start-up, before anything records. */
  configure(settings: MetricsSettings): void {
    this.#settings = settings;
    this.#disabledCount.value = settings.disabledCount;
  }

  counter(o: MetricOptions): MetricVec<CounterChild> { return this.#vec('counter', o, () => new CounterChild()); }
  gauge(o: MetricOptions): MetricVec<GaugeChild> { return this.#vec('gauge', o, () => new GaugeChild()); }
  histogram(o: HistogramOptions): MetricVec<HistogramChild> {
    const buckets = o.buckets.filter((b) => b !== Infinity);
    return this.#vec('histogram', o, () => new HistogramChild(buckets));
  }

  summary(o: MetricOptions): MetricVec<SummaryChild> { return this.#vec('summary', o, () => new SummaryChild()); }

  /** A counter or gauge family whose samples are read when scraped (process figures, ages). */
  collector(kind: 'counter' | 'gauge', o: MetricOptions, collect: () => Iterable<CollectedSample>): void {
    this.#add({ kind, options: o, collect });
  }

  #vec<C extends CounterChild | GaugeChild | HistogramChild | SummaryChild>(kind: Kind, o: MetricOptions, make: () => C): MetricVec<C> {
    const vec = new MetricVec<C>(o, make, (name, names, values) => this.#constrain(name, names, values));
    this.#add({ kind, options: o, vec });
    // A family without labels has its one child from the start: exposed as 0 before any change.
    if ((o.labelNames ?? []).length === 0) vec.labels();
    return vec;
  }

  #add(f: Family): void {
    if (this.#families.has(f.options.name)) throw new Error(`duplicate metrics collector registration attempted: ${f.options.name}`);
    this.#families.set(f.options.name, f);
    if (f.options.raw) return;
    this.#registered?.labels(f.options.stabilityLevel ?? 'ALPHA', f.options.deprecatedVersion ?? '').inc();
    if (this.#isHidden(f.options)) this.#hidden.inc();
  }

  /** ConstrainToAllowedList: a value outside the label's allow-list is recorded as `unexpected`. */
  #constrain(name: string, labelNames: readonly string[], values: string[]): void {
    const allowed = this.#settings.allowList.get(name);
    if (!allowed) return;
    labelNames.forEach((label, i) => {
      const set = allowed.get(label);
      if (set && !set.has(values[i]!)) {
        values[i] = 'unexpected';
        this.#unexpected.inc();
      }
    });
  }

  /** shouldHide: deprecated before the current minor version. */
  #isHidden(o: MetricOptions): boolean {
    if (o.deprecatedVersion === undefined) return false;
    const [major, minor] = parseMinor(o.deprecatedVersion);
    return major < this.#current[0] || (major === this.#current[0] && minor < this.#current[1]);
  }

  #exposed(o: MetricOptions): boolean {
    if (o.raw) return true;
    if (this.#settings.disabled.has(o.name)) return false;
    return !this.#isHidden(o) || this.#settings.showHidden;
  }

  /** Help as component-base annotates it: `[ALPHA] (Deprecated since 1.31.0) text`. */
  #help(o: MetricOptions): string {
    if (o.raw) return o.help;
    const deprecated = o.deprecatedVersion !== undefined ? `(Deprecated since ${o.deprecatedVersion}) ` : '';
    return `[${o.stabilityLevel ?? 'ALPHA'}] ${deprecated}${o.help}`;
  }

  /** Every exposed family, as the scrape sees it now. */
  gather(): ExposedFamily[] {
    const out: ExposedFamily[] = [];
    for (const f of this.#families.values()) {
      if (!this.#exposed(f.options)) continue;
      const names = f.options.labelNames ?? [];
      const pairs = (values: readonly string[]): LabelPairs => names.map((n, i) => [n, values[i] ?? ''] as const);
      const base = { name: f.options.name, help: this.#help(f.options) };
      if (f.collect) {
        // Read now; values outside an allow-list merge into `unexpected`, the last one read winning.
        const merged = new Map<string, ScalarSample>();
        for (const [values, value] of f.collect()) {
          const v = [...values];
          if (!f.options.raw) this.#constrain(f.options.name, names, v);
          merged.set(v.join('\u0000'), { labels: pairs(v), value });
        }
        out.push({ ...base, type: f.kind as 'counter' | 'gauge', samples: [...merged.values()] });
      } else if (f.kind === 'histogram') {
        const samples: HistogramSample[] = [];
        for (const { values, child } of f.vec!.entries()) {
          const h = child as HistogramChild;
          let cumulative = 0;
          samples.push({ labels: pairs(values), buckets: h.upperBounds.map((upper, i) => [upper, (cumulative += h.counts[i]!)] as const), sum: h.sum, count: h.count });
        }
        out.push({ ...base, type: 'histogram', samples });
      } else if (f.kind === 'summary') {
        const samples: SummarySample[] = [...f.vec!.entries()].map(({ values, child }) => ({ labels: pairs(values), sum: (child as SummaryChild).sum, count: (child as SummaryChild).count }));
        out.push({ ...base, type: 'summary', samples });
      } else {
        const samples = [...f.vec!.entries()].map(({ values, child }) => ({ labels: pairs(values), value: (child as CounterChild | GaugeChild).value }));
        out.push({ ...base, type: f.kind as 'counter' | 'gauge', samples });
      }
    }
    return out;
  }

  /** The text exposition format (core/metrics/exposition.ts). */
  expose(): string { return exposeText(this.gather()); }
}
