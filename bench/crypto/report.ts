// What `plat bench crypto` prints and writes from one run: the table (Markdown, so the README
// can carry it verbatim), the JSON rows, the fastest implementation per operation, and issue 3's
// target ratios computed from the same rows.
import { KEY_TYPE_LABEL, type BenchKeyType, type Op } from './impl.js';
import type { BenchRow, SuiteResult } from './suite.js';

export const OP_TITLES: Readonly<Record<Op, string>> = {
  parse: 'CSR parse (PEM in, fields out)',
  verify: 'CSR verify (proof of possession)',
  'pem-validate': 'status.certificate PEM validation (2-certificate chain)',
  sign: 'sign (32-byte message, CA key)',
  issue: 'issue-one-cert (PEM CSR in -> parse -> verify -> build -> sign -> PEM out)',
};

export function formatRate(v: number): string {
  return v >= 100 ? Math.round(v).toLocaleString('en-US') : v.toFixed(1);
}

export function formatMicros(v: number): string {
  return v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : Math.round(v).toLocaleString('en-US');
}

const implLabel = (r: BenchRow) => (r.workers !== undefined ? `${r.impl} x${r.workers} workers` : r.impl);

/** The rows as a Markdown table with padded columns (readable in a terminal and in the README). */
export function renderTable(rows: readonly BenchRow[]): string {
  const header = ['op', 'impl', 'key', 'ops/s', 'µs/op', 'backend'];
  const body = rows.map((r) => [
    r.op,
    implLabel(r),
    KEY_TYPE_LABEL[r.keyType],
    r.opsPerSec === null ? 'n/a' : formatRate(r.opsPerSec),
    r.usPerOp === null ? 'n/a' : formatMicros(r.usPerOp),
    r.unavailable !== undefined ? `not available: ${r.unavailable}` : r.backend,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const numeric = new Set([3, 4]);
  const line = (cells: string[]) => `| ${cells.map((c, i) => (numeric.has(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (numeric.has(i) ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return [line(header), rule, ...body.map(line)].join('\n') + '\n';
}

/** The JSON file: `[{ op, impl, keyType, opsPerSec, usPerOp, workers?, backend, unavailable? }]`. */
export function toJson(rows: readonly BenchRow[]): string {
  return JSON.stringify(rows.map((r) => ({
    op: r.op,
    impl: r.impl,
    keyType: r.keyType,
    opsPerSec: r.opsPerSec === null ? null : Math.round(r.opsPerSec * 10) / 10,
    usPerOp: r.usPerOp === null ? null : Math.round(r.usPerOp * 1000) / 1000,
    ...(r.workers !== undefined ? { workers: r.workers } : {}),
    backend: r.backend,
    ...(r.unavailable !== undefined ? { unavailable: r.unavailable } : {}),
  })), null, 2) + '\n';
}

function rate(rows: readonly BenchRow[], op: Op, impl: string, keyType: BenchKeyType, workers?: number): number | undefined {
  const r = rows.find((x) => x.op === op && x.impl === impl && x.keyType === keyType && x.workers === workers);
  return r?.opsPerSec ?? undefined;
}

export interface TargetRatio {
  label: string;
  /** undefined when a side of the ratio has no figure. */
  ratio: number | undefined;
  target: number;
  missing?: string;
}

function ratio(label: string, target: number, num: [string, number | undefined], den: [string, number | undefined]): TargetRatio {
  if (num[1] === undefined || den[1] === undefined) {
    const missing = [num, den].filter(([, v]) => v === undefined).map(([n]) => n).join(' and ');
    return { label, ratio: undefined, target, missing: `no figure for ${missing}` };
  }
  return { label, ratio: num[1] / den[1], target };
}

/**
 * Issue 3's targets from one run: (1) issue-one-cert P-256 in WASM on one core against the OpenSSL
 * limit and against @peculiar/x509, (2) WASM CSR parse against asn1js, (3) WASM P-256 sign against
 * OpenSSL; plus, when measured, batched sign and the worker pool against their targets.
 */
export function targetRatios(rows: readonly BenchRow[], workers: number): TargetRatio[] {
  const wasmIssue: [string, number | undefined] = ['issue wasm P-256', rate(rows, 'issue', 'wasm', 'p256')];
  const opensslSign: [string, number | undefined] = ['openssl P-256 sign', rate(rows, 'sign', 'openssl', 'p256')];
  const limit: [string, number | undefined] = ['openssl-limit P-256', rate(rows, 'issue', 'openssl-limit', 'p256')];
  const peculiar = rate(rows, 'issue', 'peculiar-x509', 'p256');
  const out = [
    ratio('(1) issue-one-cert P-256, wasm on one core / OpenSSL limit', 0.5, wasmIssue, limit),
    ratio('(1) issue-one-cert P-256, wasm on one core / @peculiar/x509 + webcrypto', 20, wasmIssue, ['issue peculiar-x509 P-256', peculiar]),
  ];
  const facade = rate(rows, 'issue', 'facade', 'p256');
  if (facade !== undefined) {
    out.push(ratio('(1) issue-one-cert P-256, facade (default backends) on one core / OpenSSL limit', 0.5, ['issue facade P-256', facade], limit));
    out.push(ratio('(1) issue-one-cert P-256, facade (default backends) on one core / @peculiar/x509 + webcrypto', 20,
      ['issue facade P-256', facade], ['issue peculiar-x509 P-256', peculiar]));
  }
  for (const impl of ['wasm', 'facade']) {
    const pool = workers > 0 ? rate(rows, 'issue', impl, 'p256', workers) : undefined;
    if (pool !== undefined) out.push(ratio(`(1) issue-one-cert P-256, ${impl} x${workers} workers / one-core OpenSSL limit`, 1.0, [`issue ${impl} workers`, pool], limit));
  }
  out.push(
    ratio('(2) CSR parse (P-256 CSR), wasm / asn1js', 10, ['parse wasm P-256', rate(rows, 'parse', 'wasm', 'p256')],
      ['parse asn1js P-256', rate(rows, 'parse', 'asn1js', 'p256')]),
    ratio('(3) P-256 sign, wasm / OpenSSL', 0.5, ['sign wasm P-256', rate(rows, 'sign', 'wasm', 'p256')], opensslSign),
  );
  const batch = rate(rows, 'sign', 'wasm-batch', 'p256');
  if (batch !== undefined) out.push(ratio('(3) P-256 sign, wasm batched / OpenSSL', 0.8, ['sign wasm-batch P-256', batch], opensslSign));
  return out;
}

export function renderRatios(ratios: readonly TargetRatio[]): string {
  return ratios.map((r) => r.ratio === undefined
    ? `${r.label}: ratio n/a (target ${r.target}) not measured: ${r.missing}`
    : `${r.label}: ratio ${r.ratio.toFixed(2)} (target ${r.target}) ${r.ratio >= r.target ? 'met' : 'missed'}`).join('\n') + '\n';
}

/**
 * The fastest in-process implementation per (op, key type) on one thread, how much slower the
 * others are, and which backend the facade chose: the measured reason for each default backend.
 */
export function renderFastest(rows: readonly BenchRow[]): string {
  const lines: string[] = [];
  const groups = new Map<string, BenchRow[]>();
  for (const r of rows) {
    if (r.opsPerSec === null || r.workers !== undefined || r.impl.startsWith('openssl')) continue;
    const key = `${r.op} ${KEY_TYPE_LABEL[r.keyType]}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  for (const [key, rs] of groups) {
    const sorted = rs.filter((r) => r.impl !== 'facade').sort((a, b) => b.opsPerSec! - a.opsPerSec!);
    const best = sorted[0];
    if (best === undefined) continue;
    const slower = (r: BenchRow) => {
      const x = best.opsPerSec! / r.opsPerSec!;
      return `${r.impl} ${x < 2 ? x.toFixed(2) : x.toFixed(1)}x slower`;
    };
    const facade = rs.find((r) => r.impl === 'facade');
    lines.push(`${key}: ${best.impl} (${formatRate(best.opsPerSec!)}/s)`
      + (sorted.length > 1 ? `; ${sorted.slice(1).map(slower).join(', ')}` : '')
      + (facade ? `; facade default: ${facade.backend} (${formatRate(facade.opsPerSec!)}/s)` : ''));
  }
  return lines.join('\n') + '\n';
}

export function renderHeader(result: SuiteResult, seconds: number): string {
  const e = result.environment;
  const ssl = result.openssl ? `, ${result.openssl.version}` : '';
  return `plat bench crypto: ${seconds} s per row, node ${e.node}, ${e.cpus} x ${e.cpu} (${e.platform})${ssl}\n`;
}
