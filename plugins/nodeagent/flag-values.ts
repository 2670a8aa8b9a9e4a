// The kubelet's special flag value types (component-base cli/flag and pkg/util/flag), parsed from
// the texts plat's flag parser collects, with their error texts: name:value header multimaps,
// `signal<quantity` eviction maps, key=bool feature gates, taints, NUMA memory reservations
// and IP addresses (vmodule patterns: core/log-vmodule.ts).
import { isIP } from 'node:net';
import { parseBool } from '../../core/flags/parse-value.js';
import { parseQuantity } from '../../core/flags/quantity.js';
import type { Taint } from '../../core/nodeagent/configuration.js';
import { labelValueErrors, qualifiedNameErrors } from '../../core/api/selectors/label-syntax.js';

const pairs = (value: string, sep = ','): string[] => value.split(sep).filter((p) => p.length > 0);

/** ColonSeparatedMultimapStringString: `a:1,b:2`, repeated names kept in order. */
export function parseHeaderMultimap(values: readonly string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const value of values) {
    for (const pair of pairs(value)) {
      const i = pair.indexOf(':');
      if (i === -1) throw new Error('malformed pair, expect string:string');
      const k = pair.slice(0, i).trim();
      (out[k] ??= []).push(pair.slice(i + 1).trim());
    }
  }
  return out;
}

/** LangleSeparatedMapStringString: `memory.available<100Mi,nodefs.available<10%`. */
export function parseLangleMap(values: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const value of values) {
    for (const pair of pairs(value)) {
      const i = pair.indexOf('<');
      if (i === -1) throw new Error('malformed pair, expect string<string');
      out[pair.slice(0, i).trim()] = pair.slice(i + 1).trim();
    }
  }
  return out;
}

/** MapStringBool: the --feature-gates values, `Name=true`. */
export function parseFeatureGates(map: Readonly<Record<string, string>>): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const [k, v] of Object.entries(map)) {
    try {
      out[k] = parseBool(v);
    } catch (e) {
      throw new Error(`invalid value of ${k}: ${v}, err: ${(e as Error).message}`);
    }
  }
  return out;
}

/** Go's %v of a v1.Taint, as upstream's messages print it. */
export function formatTaint(t: Taint): string {
  return `{${t.key} ${t.value ?? ''} ${t.effect} ${t.timeAdded ?? '<nil>'}}`;
}

export const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** utiltaints.parseTaint of one `key[=value]:effect`. */
function parseTaint(spec: string): Taint {
  const parts = spec.split(':');
  let key: string;
  let value = '';
  let effect = '';
  if (parts.length === 1) {
    key = parts[0]!;
  } else if (parts.length === 2) {
    effect = parts[1]!;
    if (!TAINT_EFFECTS.includes(effect)) throw new Error(`invalid taint effect: ${effect}, unsupported taint effect`);
    const kv = parts[0]!.split('=');
    if (kv.length > 2) throw new Error(`invalid taint spec: ${spec}`);
    key = kv[0]!;
    if (kv.length === 2) {
      value = kv[1]!;
      const errs = labelValueErrors(value);
      if (errs.length) throw new Error(`invalid taint spec: ${spec}, ${errs.join('; ')}`);
    }
  } else {
    throw new Error(`invalid taint spec: ${spec}`);
  }
  const errs = qualifiedNameErrors(key);
  if (errs.length) throw new Error(`invalid taint spec: ${spec}, ${errs.join('; ')}`);
  return value === '' ? { key, effect } : { key, value, effect };
}

/** RegisterWithTaintsVar: `key=value:Effect,...` through utiltaints.ParseTaints (no removals). */
export function parseTaints(specs: readonly string[]): Taint[] {
  const taints: Taint[] = [];
  const seen = new Set<string>();
  for (const spec of specs) {
    if (spec.trim() === '') continue;
    if (spec.endsWith('-')) throw new Error(`invalid taint spec: ${spec}`);
    const taint = parseTaint(spec);
    if (taint.effect === '') throw new Error(`invalid taint spec: ${spec}`);
    const id = `${taint.effect}\u0000${taint.key}`;
    if (seen.has(id)) throw new Error(`duplicated taints with the same key and effect: ${formatTaint(taint)}`);
    seen.add(id);
    taints.push(taint);
  }
  return taints;
}

const isHugePages = (name: string): boolean => name.startsWith('hugepages-');
const RESERVED_MEMORY_FORMAT = 'the reserved memory has incorrect format, expected numaNodeID:type=quantity[,type=quantity...], got';

/** ReservedMemoryVar: `0:memory=1Gi,hugepages-1M=2Gi;1:memory=2Gi`, repeatable. */
export function parseReservedMemory(values: readonly string[]): Array<{ numaNode: number; limits: Record<string, string> }> {
  const out: Array<{ numaNode: number; limits: Record<string, string> }> = [];
  for (const value of values) {
    if (value === '') continue;
    for (const reservation of value.split(';')) {
      const node = reservation.split(':');
      if (node.length !== 2) throw new Error(`${RESERVED_MEMORY_FORMAT} ${reservation}`);
      if (!/^[+-]?\d+$/.test(node[0]!)) throw new Error(`failed to convert the NUMA node ID, exptected integer, got ${node[0]}`);
      const limits: Record<string, string> = {};
      for (const typed of node[1]!.split(',')) {
        const limit = typed.split('=');
        if (limit.length !== 2) throw new Error(`the reserved limit has incorrect value, expected type=quantatity, got ${typed}`);
        const [name, quantity] = limit as [string, string];
        if (name !== 'memory' && !isHugePages(name)) throw new Error(`memory type conversion error, unknown type: "${name}"`);
        try {
          parseQuantity(quantity);
        } catch {
          throw new Error(`failed to parse the quantatity, expected quantatity, got ${quantity}`);
        }
        limits[name] = quantity;
      }
      out.push({ numaNode: Number(node[0]), limits });
    }
  }
  return out;
}

/** IPVar: empty, or an IPv4/IPv6 address. */
export function ipError(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' && isIP(value) === 0 ? `"${value}" is not a valid IP address` : undefined;
}

/** Wraps a parser as a flag `validate`: the parser's error text, or undefined. */
export function validateWith(parse: (v: never) => unknown): (v: unknown) => string | undefined {
  return (v) => {
    try {
      parse(v as never);
      return undefined;
    } catch (e) {
      return (e as Error).message;
    }
  };
}
