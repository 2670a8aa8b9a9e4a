// How `plat csr get` and `plat csr list` print: the CSR table columns kubectl shows (the same
// printer the server's Table uses), aligned as kubectl's tabwriter aligns them (3 spaces between
// columns), or the objects as JSON or YAML as kubectl writes them.
import type { Csr } from '../../core/certificates/csr-object.js';
import type { Flags } from '../../core/flags/flag-set.js';
import { goJson } from './go-json.js';
import { goYaml } from '../../core/api/go-yaml-marshal.js';
import { csrTablePrinter } from '../../plugins/certificates/table.js';
import type { CertificateSigningRequest } from '../../plugins/certificates/types.js';

/** How kubectl names one object in its messages: `<kind>.<group>/<name>`. */
export const CSR_DISPLAY = 'certificatesigningrequest.certificates.platform';

export const TABLE_HEADER: readonly string[] = csrTablePrinter.columns.map((c) => c.name.toUpperCase());

export const tableRow = (csr: Csr, now: Date): string[] => csrTablePrinter.cells(csr as unknown as CertificateSigningRequest, now).map(String);

const PADDING = 3;
const MIN_WIDTH = 6;

/** A cell's width as the tabwriter counts it: code points (an emoji is one, not two UTF-16 units). */
const width = (cell: string): number => [...cell].length;

/** Column widths (text plus padding) covering every row given. */
export function columnWidths(rows: readonly (readonly string[])[]): number[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => { widths[i] = Math.max(widths[i] ?? 0, Math.max(width(cell) + PADDING, MIN_WIDTH)); });
  return widths;
}

/** One line; the last cell is not padded. */
export function formatRow(row: readonly string[], widths: readonly number[]): string {
  return row.map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat(Math.max((widths[i] ?? 0) - width(cell), 0)))).join('') + '\n';
}

/** -o of the commands that print objects they wrote or waited for, as kubectl create/wait -o. */
export function defineObjectOutput(f: Flags, section: string, otherwise: string): void {
  f.define({ name: 'output', shorthand: 'o', type: 'string', default: '', enum: ['json', 'yaml', 'name'], section,
    help: `Output format: json, yaml or name (default: ${otherwise}).` });
  defineShowManagedFields(f, section);
}

/** kubectl's --show-managed-fields, beside every -o that prints objects. */
export function defineShowManagedFields(f: Flags, section: string): void {
  f.define({ name: 'show-managed-fields', type: 'bool', default: false, section,
    help: 'If true, keep the managedFields when printing objects in JSON or YAML format.' });
}

/** What -o prints of an object or list: kubectl's printers drop metadata.managedFields unless asked. */
function printed(obj: unknown, showManagedFields: boolean): unknown {
  if (showManagedFields || typeof obj !== 'object' || obj === null) return obj;
  const o = obj as { metadata?: { managedFields?: unknown }; items?: unknown[] };
  const items = Array.isArray(o.items) ? { items: o.items.map((i) => printed(i, false)) } : {};
  if (!o.metadata || !('managedFields' in o.metadata)) return { ...o, ...items };
  const { managedFields: _dropped, ...metadata } = o.metadata;
  return { ...o, metadata, ...items };
}

export function formatObject(obj: unknown, format: string, showManagedFields = false): string {
  const shown = printed(obj, showManagedFields);
  return format === 'yaml' ? goYaml(shown) : goJson(shown);
}

/**
 * Prints objects one by one as kubectl's printers do (a list and then each watch event, or each
 * CSR approve decided): every YAML document after the first starts with `---`, so the stream stays
 * a valid multi-document file; `name` is `<kind>.<group>/<name>`.
 */
export function objectPrinter(format: string, out: (text: string) => void, showManagedFields = false): (csr: Csr) => void {
  let count = 0;
  return (csr) => {
    if (format === 'name') out(`${CSR_DISPLAY}/${csr.metadata.name ?? ''}\n`);
    else out((format === 'yaml' && count > 0 ? '---\n' : '') + formatObject(csr, format, showManagedFields));
    count++;
  };
}
