// The eviction settings as upstream's eviction.ParseThresholdConfig reads them at start-up: known
// signal names (Linux), thresholds as positive quantities or percentages in [0%, 100%] (0% and
// 100% mean "no threshold"), a grace period for every soft threshold, non-negative minimum
// reclaims. plat evicts nothing; the check keeps a configuration that upstream would refuse from
// being accepted here. Returns upstream's first error, as ParseThresholdConfig does.
import { parseDurationNanos } from '../../core/flags/duration.js';
import { parseFloat64 } from '../../core/flags/parse-value.js';
import { parseQuantity } from '../../core/flags/quantity.js';

export const EVICTION_SIGNALS = [
  'memory.available', 'allocatableMemory.available', 'nodefs.available', 'nodefs.inodesFree', 'imagefs.available',
  'imagefs.inodesFree', 'containerfs.available', 'containerfs.inodesFree', 'pid.available',
];

const unsupported = (signal: string) => new Error(`unsupported eviction signal ${signal}`);
const sorted = (m: Readonly<Record<string, string>> | undefined): [string, string][] => Object.entries(m ?? {}).sort(([a], [b]) => a.localeCompare(b));

function percentage(value: string): number {
  return parseFloat64(value.replace(/%+$/, '')) / 100;
}

function checkThreshold(signal: string, value: string): void {
  if (!EVICTION_SIGNALS.includes(signal)) throw unsupported(signal);
  if (value.endsWith('%')) {
    if (value === '0%' || value === '100%') return;
    const p = percentage(value);
    if (p < 0) throw new Error(`eviction percentage threshold ${signal} must be >= 0%: ${value}`);
    if (p > 1) throw new Error(`eviction percentage threshold ${signal} must be <= 100%: ${value}`);
    return;
  }
  const q = parseQuantity(value);
  if (q <= 0) throw new Error(`eviction threshold ${signal} must be positive: ${value}`);
}

export interface EvictionSettings {
  readonly evictionHard?: Readonly<Record<string, string>>;
  readonly evictionSoft?: Readonly<Record<string, string>>;
  readonly evictionSoftGracePeriod?: Readonly<Record<string, string>>;
  readonly evictionMinimumReclaim?: Readonly<Record<string, string>>;
}

/** The first problem ParseThresholdConfig would report, with the field it is about; undefined when fine. */
export function evictionProblem(s: EvictionSettings): { field: string; message: string } | undefined {
  const at = (field: string, f: () => void) => {
    try { f(); return undefined; } catch (e) { return { field, message: (e as Error).message }; }
  };
  for (const [signal, value] of sorted(s.evictionHard)) {
    const bad = at('evictionHard', () => checkThreshold(signal, value));
    if (bad) return bad;
  }
  for (const [signal, value] of sorted(s.evictionSoft)) {
    const bad = at('evictionSoft', () => checkThreshold(signal, value));
    if (bad) return bad;
  }
  for (const [signal, value] of sorted(s.evictionSoftGracePeriod)) {
    const bad = at('evictionSoftGracePeriod', () => {
      if (!EVICTION_SIGNALS.includes(signal)) throw unsupported(signal);
      if (parseDurationNanos(value) < 0n) throw new Error(`invalid eviction grace period specified: ${value}, must be a positive value`);
    });
    if (bad) return bad;
  }
  for (const [signal, value] of sorted(s.evictionMinimumReclaim)) {
    const bad = at('evictionMinimumReclaim', () => {
      if (!EVICTION_SIGNALS.includes(signal)) throw unsupported(signal);
      if (value.endsWith('%')) {
        if (percentage(value) <= 0) throw new Error(`eviction percentage minimum reclaim ${signal} must be positive: ${value}`);
        return;
      }
      if (parseQuantity(value) < 0) throw new Error(`negative eviction minimum reclaim specified for ${signal}`);
    });
    if (bad) return bad;
  }
  for (const [signal] of sorted(s.evictionSoft)) {
    if (s.evictionSoftGracePeriod?.[signal] === undefined) {
      return { field: 'evictionSoft', message: `grace period must be specified for the soft eviction threshold ${signal}` };
    }
  }
  return undefined;
}
