// The table of `plat csr get|list` as kubectl get prints it: asked of the server (a meta.k8s.io
// Table, kubectl's Accept header), so the AGE column is the server's time since creation, as
// kubectl shows it, not this machine's (whose clock may run ahead of or behind the server's). A
// server that answers the plain object or list instead is printed here, as kubectl falls back to
// printing on its side.
import type { ApiObject } from '../../core/api/meta.js';
import type { Csr } from '../../core/certificates/csr-object.js';
import { TABLE_HEADER, tableRow } from './csr-output.js';

/** kubectl get's Accept for human-readable output (get.go transformRequests). */
export const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

interface Column { readonly name?: unknown; readonly priority?: unknown }
interface Table extends ApiObject { readonly columnDefinitions?: readonly Column[] | null; readonly rows?: readonly { readonly cells?: readonly unknown[] }[] | null }

export const isTable = (v: unknown): v is Table =>
  typeof v === 'object' && v !== null && (v as ApiObject).kind === 'Table' && typeof (v as ApiObject).apiVersion === 'string' && (v as ApiObject).apiVersion!.startsWith('meta.k8s.io/');

/**
 * How a cell prints, as tableprinter's printTable: nothing for a null cell, Go's %v of any other
 * value, cut at its first form feed, newline or carriage return with "..." (one cell, one line),
 * and ESC written as ^[ (terminal.go's WriteEscaped): a requestor's name must not drive the
 * terminal.
 */
export function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  const text = typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
  const brk = text.search(/[\f\n\r]/);
  const shown = brk < 0 ? text : text.slice(0, brk);
  return shown.replaceAll('\x1b', '^[') + (brk < 0 ? '' : '...');
}

/**
 * Turns what the server answered (Tables, or CSRs from a server that prints none) into the header
 * and rows to print. It keeps the first Table's columns: a watch's later Tables carry none.
 */
export class ServerRows {
  #shown: number[] | undefined;
  #header: string[] = [...TABLE_HEADER];

  constructor(private readonly wide: boolean, private readonly now: () => Date = () => new Date()) {}

  get header(): readonly string[] { return this.#header; }

  rows(answer: unknown): string[][] {
    if (!isTable(answer)) return [tableRow(answer as Csr, this.now()).map(cellText)];
    const columns = answer.columnDefinitions;
    if (columns && this.#shown === undefined) {
      // kubectl shows a column of priority 0 only, unless -o wide.
      this.#shown = columns.flatMap((c, i) => (this.wide || !c.priority ? [i] : []));
      this.#header = this.#shown.map((i) => String(columns[i]!.name ?? '').toUpperCase());
    }
    return (answer.rows ?? []).map((r) => {
      const cells = r.cells ?? [];
      return (this.#shown ?? cells.map((_, i) => i)).map((i) => cellText(cells[i]));
    });
  }
}
