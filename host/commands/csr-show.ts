// `plat csr get NAME` and `plat csr list [-w]`: the CSR table kubectl prints (NAME AGE SIGNERNAME
// REQUESTOR REQUESTEDDURATION CONDITION), or the objects as JSON, YAML or names. With -w, list
// keeps watching and prints a line for every change (re-watching when the server ends a watch,
// re-listing when its version is compacted) until --timeout, if one is given.
import type { ApiObject } from '../../core/api/meta.js';
import { CSR_RESOURCE, type Csr } from '../../core/certificates/csr-object.js';
import { isApiError, resourcePath, type List, type RestClient } from '../../core/client/rest-client.js';
import { FlagError, type Flags } from '../../core/flags/flag-set.js';
import { sleep } from '../../core/abort-wait.js';
import { CommandError } from './ca.js';
import { csrFlags, openClient } from './csr-connection.js';
import { columnWidths, CSR_DISPLAY, formatObject, formatRow, formatTable, TABLE_HEADER, tableRow } from './csr-output.js';

type Out = (text: string) => void;

function defineOutput(f: Flags, section: string): void {
  f.define({ name: 'output', shorthand: 'o', type: 'string', default: '', enum: ['json', 'yaml', 'name'], section, help: 'Output format: json, yaml or name (default: a table).' });
}

/**
 * Prints objects one by one as kubectl's printers do, the list and then each watch event: every
 * YAML document after the first starts with `---`, so the stream stays a valid multi-document file.
 */
function objectPrinter(format: string, out: Out): (csr: Csr) => void {
  let printed = 0;
  return (csr) => {
    if (format === 'name') out(`${CSR_DISPLAY}/${csr.metadata.name ?? ''}\n`);
    else out((format === 'yaml' && printed > 0 ? '---\n' : '') + formatObject(csr, format));
    printed++;
  };
}

export async function csrGet(argv: readonly string[], out: Out): Promise<number> {
  const S = 'plat csr get';
  const f = csrFlags(S);
  defineOutput(f, S);
  const { positional } = f.parse([...argv]);
  if (positional.length !== 1) throw new FlagError('exactly one NAME is required');
  const client = openClient(f);
  try {
    const csr = await client.get<Csr>(CSR_RESOURCE, positional[0]!);
    const format = f.get<string>('output');
    if (format) objectPrinter(format, out)(csr);
    else out(formatTable([TABLE_HEADER, tableRow(csr, new Date())]));
    return 0;
  } finally {
    client.close();
  }
}

/**
 * The list kubectl prints for `get -o json|yaml`: not the server's CertificateSigningRequestList
 * but the objects wrapped in a v1 List with an empty resourceVersion, as kubectl composes it.
 */
function asKubectlList(items: readonly Csr[]): object {
  return { apiVersion: 'v1', items, kind: 'List', metadata: { resourceVersion: '' } };
}

async function listAll(client: RestClient, signal?: AbortSignal): Promise<List<Csr> & ApiObject> {
  return client.request<List<Csr> & ApiObject>('GET', resourcePath(CSR_RESOURCE), signal ? { signal } : {});
}

/** Follows changes from `rv` until `signal` aborts; prints each changed CSR. */
async function watchChanges(client: RestClient, rv: string, printObject: ((csr: Csr) => void) | undefined, widths: number[], out: Out, signal: AbortSignal): Promise<void> {
  const print = (csr: Csr) => {
    if (printObject) { printObject(csr); return; }
    const row = tableRow(csr, new Date());
    columnWidths([row]).forEach((w, i) => { widths[i] = Math.max(widths[i] ?? 0, w); });
    out(formatRow(row, widths));
  };
  let version: string | undefined = rv;
  while (!signal.aborted) {
    try {
      if (version === undefined) {
        const list = await listAll(client, signal);
        list.items.forEach(print);
        version = list.metadata.resourceVersion ?? '';
      }
      for await (const ev of client.watch<Csr>(CSR_RESOURCE, { resourceVersion: version, timeoutSeconds: Math.floor(300 * (1 + Math.random())), signal })) {
        if (ev.type === 'ERROR') {
          const status = ev.object as ApiObject & { code?: number; message?: string };
          if (status.code === 410) { version = undefined; break; }
          throw new CommandError(`watch failed: ${status.message ?? JSON.stringify(status)}`);
        }
        version = ev.object.metadata.resourceVersion ?? version;
        if (ev.type !== 'BOOKMARK') print(ev.object);
      }
    } catch (e) {
      if (signal.aborted) return;
      if (e instanceof CommandError || (isApiError(e) && e.code >= 400 && e.code < 500 && e.code !== 410 && e.code !== 429)) throw e;
      if (isApiError(e) && e.code === 410) version = undefined;
      await sleep(1000, signal);
    }
  }
}

export async function csrList(argv: readonly string[], out: Out, err: Out): Promise<number> {
  const S = 'plat csr list';
  const f = csrFlags(S);
  defineOutput(f, S);
  f.define({ name: 'watch', shorthand: 'w', type: 'bool', default: false, section: S, help: 'After listing, watch for changes.' });
  f.define({ name: 'timeout', type: 'duration', default: 0, section: S, help: 'With --watch: stop after this long (0: until interrupted).',
    validate: (v) => ((v as number) < 0 ? 'must not be negative' : undefined) });
  const { positional } = f.parse([...argv]);
  if (positional.length) throw new FlagError(`unexpected argument "${positional[0]}"`);
  const format = f.get<string>('output');
  const client = openClient(f);
  try {
    const list = await listAll(client);
    let widths: number[] = [];
    const printObject = format ? objectPrinter(format, out) : undefined;
    if (printObject && !f.get<boolean>('watch') && format !== 'name') {
      out(formatObject(asKubectlList(list.items), format));
    } else if (printObject) {
      list.items.forEach(printObject);
    } else if (list.items.length === 0 && !f.get<boolean>('watch')) {
      err('No resources found\n');
    } else {
      const rows = [TABLE_HEADER, ...list.items.map((csr) => tableRow(csr, new Date()))];
      widths = columnWidths(rows);
      out(rows.map((r) => formatRow(r, widths)).join(''));
    }
    if (!f.get<boolean>('watch')) return 0;
    const stop = new AbortController();
    const timeout = f.get<number>('timeout');
    const timer = timeout ? setTimeout(() => stop.abort(), timeout) : undefined;
    const interrupted = () => stop.abort();
    process.once('SIGINT', interrupted);
    try {
      await watchChanges(client, list.metadata.resourceVersion ?? '', printObject, widths, out, stop.signal);
    } finally {
      clearTimeout(timer);
      process.removeListener('SIGINT', interrupted);
    }
    return 0;
  } finally {
    client.close();
  }
}
