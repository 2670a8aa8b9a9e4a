// How `plat snapshot status` (and save) print a snapshot's status, as etcdutl's printers do: simple
// (comma-separated), table (tablewriter's box: headers centred, numbers right-aligned) and json.
import type { SnapshotStatus } from '../../core/storage/lmdb-snapshot.js';

export const WRITE_OUT = ['simple', 'table', 'json'] as const;
export type WriteOut = (typeof WRITE_OUT)[number];

const SIZES = ['B', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB'];

/** go-humanize's Bytes: SI units, one decimal under 10. */
export function humanBytes(n: number): string {
  if (n < 10) return `${n} B`;
  const e = Math.floor(Math.log(n) / Math.log(1000));
  const tenths = Math.floor((n / 1000 ** e) * 10 + 0.5);
  if (tenths < 100) return `${(tenths / 10).toFixed(1)} ${SIZES[e]}`;
  // Go's %.0f rounds a half to even (234.5 -> 234), toFixed away from zero.
  const whole = Math.floor(tenths / 10);
  const rounded = tenths % 10 > 5 || (tenths % 10 === 5 && whole % 2 === 1) ? whole + 1 : whole;
  return `${rounded} ${SIZES[e]}`;
}

/** etcdutl's makeDBStatusTable row: hash in hex, revision, total keys, humanized size. */
function row(s: SnapshotStatus): string[] {
  return [s.hash.toString(16), String(s.revision), String(s.totalKey), humanBytes(s.totalSize)];
}

const HEADER = ['HASH', 'REVISION', 'TOTAL KEYS', 'TOTAL SIZE'];

function table(cells: readonly string[]): string {
  const widths = HEADER.map((h, i) => Math.max(h.length, cells[i]!.length));
  const line = `+${widths.map((w) => '-'.repeat(w + 2)).join('+')}+\n`;
  const centre = (h: string, w: number) => {
    const left = Math.floor((w - h.length) / 2);
    return ' '.repeat(left) + h + ' '.repeat(w - h.length - left);
  };
  const head = `|${HEADER.map((h, i) => ` ${centre(h, widths[i]!)} `).join('|')}|\n`;
  const body = `|${cells.map((c, i) => ` ${/^\d+$/.test(c) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)} `).join('|')}|\n`;
  return line + head + line + body + line;
}

export function formatStatus(s: SnapshotStatus, out: WriteOut): string {
  if (out === 'json') return `${JSON.stringify({ hash: s.hash, revision: s.revision, totalKey: s.totalKey, totalSize: s.totalSize })}\n`;
  if (out === 'table') return table(row(s));
  return `${row(s).join(', ')}\n`;
}
