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
}

export function formatObject(obj: unknown, format: string): string {
  return format === 'yaml' ? goYaml(obj) : goJson(obj);
}

/**
 * Prints objects one by one as kubectl's printers do (a list and then each watch event, or each
 * CSR approve decided): every YAML document after the first starts with `---`, so the stream stays
 * a valid multi-document file; `name` is `<kind>.<group>/<name>`.
 */
export function objectPrinter(format: string, out: (text: string) => void): (csr: Csr) => void {
  let printed = 0;
  return (csr) => {
    if (format === 'name') out(`${CSR_DISPLAY}/${csr.metadata.name ?? ''}\n`);
    else out((format === 'yaml' && printed > 0 ? '---\n' : '') + formatObject(csr, format));
    printed++;
  };
}
