// How `plat csr get` and `plat csr list` print: the CSR table columns kubectl shows (the same
// printer the server's Table uses), aligned as kubectl's tabwriter aligns them (3 spaces between
// columns), or the objects as JSON or YAML as kubectl writes them.
import { Document, visit } from 'yaml';
import type { Csr } from '../../core/certificates/csr-object.js';
import { goJson } from './go-json.js';
import { csrTablePrinter } from '../../plugins/certificates/table.js';
import type { CertificateSigningRequest } from '../../plugins/certificates/types.js';

/** How kubectl names one object in its messages: `<kind>.<group>/<name>`. */
export const CSR_DISPLAY = 'certificatesigningrequest.certificates.platform';

export const OUTPUT_FORMATS = ['', 'json', 'yaml'] as const;
export const TABLE_HEADER: readonly string[] = csrTablePrinter.columns.map((c) => c.name.toUpperCase());

export const tableRow = (csr: Csr, now: Date): string[] => csrTablePrinter.cells(csr as unknown as CertificateSigningRequest, now).map(String);

const PADDING = 3;
const MIN_WIDTH = 6;

/** Column widths (text plus padding) covering every row given. */
export function columnWidths(rows: readonly (readonly string[])[]): number[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => { widths[i] = Math.max(widths[i] ?? 0, Math.max(cell.length + PADDING, MIN_WIDTH)); });
  return widths;
}

/** One line; the last cell is not padded. */
export function formatRow(row: readonly string[], widths: readonly number[]): string {
  return row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('') + '\n';
}

export function formatTable(rows: readonly (readonly string[])[]): string {
  const widths = columnWidths(rows);
  return rows.map((r) => formatRow(r, widths)).join('');
}

// kubectl and most YAML readers (go-yaml, PyYAML) read YAML 1.1, where a plain `on`, `yes`, `n` or
// a timestamp is no string; Go's number syntax (`0o17`, `1_000`) goes further than 1.1's. Such
// strings are quoted, as kubectl quotes them, so the output can go back through `kubectl apply -f`.
const GO_NUMBER = /^[-+]?(?:0[box][0-9a-f_]+|[0-9_]*\.?[0-9_]+(?:e[-+]?[0-9]+)?|\.?inf|\.?nan)$/i;

function toYaml(obj: unknown): string {
  const doc = new Document(obj, { version: '1.1' });
  visit(doc, { Scalar(_, node) { if (typeof node.value === 'string' && GO_NUMBER.test(node.value)) node.type = 'QUOTE_DOUBLE'; } });
  return doc.toString({ indentSeq: false });
}

export function formatObject(obj: unknown, format: string): string {
  return format === 'yaml' ? toYaml(obj) : goJson(obj);
}
